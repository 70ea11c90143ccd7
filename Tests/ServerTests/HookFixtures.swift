/// Posts recorded from the tools teams point at a Slack incoming webhook, byte for byte as they
/// send them (compact JSON in their Go structs' field order, `&` as `\u0026`, Alertmanager's with
/// its encoder's final line break), and the lines a hook makes of them. Rendered from the tools'
/// sources and default templates: Alertmanager's `notify/slack` and `template/default.tmpl`
/// (v0.25–v0.34), Grafana's alerting library `receivers/slack` and `templates/default_template.go`
/// (Grafana 11.3).
enum HookFixtures {
    /// Alertmanager's Slack receiver with only `api_url` set (its default templates: no
    /// annotation is shown), routed by `alertname`, for one firing `InstanceDown` alert.
    static let alertmanager = #"""
        {"username":"Alertmanager","attachments":[{"title":"[FIRING:1] InstanceDown (node1:9100 node critical)","title_link":"http://alertmanager.example:9093/#/alerts?receiver=slack-notifications","text":"","fallback":"[FIRING:1] InstanceDown (node1:9100 node critical) | http://alertmanager.example:9093/#/alerts?receiver=slack-notifications","callback_id":"","footer":"","color":"danger","mrkdwn_in":["fallback","pretext","text"]}]}

        """#

    /// What Alertmanager's post shows.
    static let alertmanagerLines = [
        "[Alertmanager]",
        "[FIRING:1] InstanceDown (node1:9100 node critical) (http://alertmanager.example:9093/#/alerts?receiver=slack-notifications)",
    ]

    /// Grafana's unified alerting, a Slack contact point in webhook mode with its default title
    /// and message, for one firing `HighCPU` alert of folder Infra.
    static let grafana = #"""
        {"username":"Grafana","attachments":[{"title":"[FIRING:1] HighCPU Infra (web-1)","title_link":"http://grafana.example:3000/alerting/grafana/edw4k1w7vqn7kd/view","text":"**Firing**\n\nValue: B=95.34, C=1\nLabels:\n - alertname = HighCPU\n - grafana_folder = Infra\n - instance = web-1\nAnnotations:\n - summary = CPU above 90% on web-1\nSource: http://grafana.example:3000/alerting/grafana/edw4k1w7vqn7kd/view?orgId=1\nSilence: http://grafana.example:3000/alerting/silence/new?alertmanager=grafana\u0026matcher=alertname%3DHighCPU\u0026matcher=grafana_folder%3DInfra\u0026matcher=instance%3Dweb-1\u0026orgId=1\n","fallback":"[FIRING:1] HighCPU Infra (web-1)","footer":"Grafana v11.3.0","footer_icon":"https://grafana.com/static/assets/img/fav32.png","color":"#D63232","ts":1729765832}]}
        """#

    /// What Grafana's post shows: its Markdown as the characters it is.
    static let grafanaLines = [
        "[Grafana]", "[FIRING:1] HighCPU Infra (web-1) (http://grafana.example:3000/alerting/grafana/edw4k1w7vqn7kd/view)", "**Firing**",
        "Value: B=95.34, C=1", "Labels:", " - alertname = HighCPU", " - grafana_folder = Infra", " - instance = web-1", "Annotations:",
        " - summary = CPU above 90% on web-1", "Source: http://grafana.example:3000/alerting/grafana/edw4k1w7vqn7kd/view?orgId=1",
        "Silence: http://grafana.example:3000/alerting/silence/new?alertmanager=grafana&matcher=alertname%3DHighCPU&matcher=grafana_folder%3DInfra&matcher=instance%3Dweb-1&orgId=1",
        "Grafana v11.3.0",
    ]
}
