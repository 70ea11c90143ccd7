import Foundation
import Kernel
import MessageAIServer
import TestSupport
import Testing

/// `messageai-server`'s settings from the environment: the names `--help` gives are the names
/// read, and a variable that names no setting is said, never silently ignored.
@Suite("Server settings", .timeLimit(.minutes(1)))
struct ServerSettingsTests {
    @Test(
        "registration auto is open on a loopback address and invite on any other or behind a proxy; a mode said outright stands",
        arguments: [
            ("auto", "127.0.0.1", false, "open"), ("auto", "::1", false, "open"), ("auto", "localhost", false, "open"),
            ("auto", "127.0.0.1", true, "invite"), ("auto", "0.0.0.0", false, "invite"), ("auto", "192.0.2.7", false, "invite"),
            ("auto", "::", false, "invite"), ("open", "0.0.0.0", true, "open"), ("closed", "127.0.0.1", false, "closed"),
        ] as [(String, String, Bool, String)])
    func registration(setting: String, host: String, behindProxy: Bool, mode: String) {
        #expect(ServerSettings.registration(setting, host: host, behindProxy: behindProxy).rawValue == mode)
    }

    @Test("each key's variable, as --help names it, is read; a near miss is warned about and changes nothing")
    func environmentVariables() async throws {
        let help = try await run(["--help"])
        let words = help.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let values = [
            "host": "127.0.0.2", "port": "9001", "sqlite.path": "/tmp/s.sqlite", "postgres.url": "postgres://messageai@db.example:5433/chat",
            "postgres.connections": "14", "tls.cert": "/tmp/c.pem", "tls.key": "/tmp/k.pem",
            "auth.bcryptCost": "5", "log.level": "debug", "auth.signUpBurst": "7", "events.pingSeconds": "11", "events.queueFrames": "12",
            "http.idleSeconds": "13",
            "http.connectionsPerAddress": "14", "http.trustedProxies": "10.0.0.9, ::1",
            "budget.messagesPerMinute": "61", "budget.fanOutMegabytesPerMinute": "62", "budget.conversationsPerHour": "63",
            "budget.renamesPerHour": "64", "budget.lookupsPerMinute": "65", "budget.requestsAtOnce": "66",
            "budget.uploadMegabytesPerHour": "67", "files.maxBytes": "68", "files.quotaMegabytes": "69", "registration.mode": "closed",
            "retention.days": "70", "registration.invitesBy": "everyone",
        ]
        for setting in ServerSettings.table.keys {
            let key = setting.name, variable = ServerSettings.table.environmentVariable(of: setting)
            #expect(words.contains("\(key), \(variable):"), "--help does not name \(variable)")
            let value = try #require(values[key], "no test value for \(key)")
            // The certificate and its key go together: the other comes from the command line.
            let partner = ["tls.cert": ["tls.key": "/tmp/k.pem"], "tls.key": ["tls.cert": "/tmp/c.pem"]][key] ?? [:]
            let settings = try ServerSettings.load(commandLine: partner, configFile: nil, environment: [variable: value])
            let read: String? =
                switch key {
                case "host": settings.host
                case "port": String(settings.port)
                case "sqlite.path": settings.sqlitePath
                case "postgres.url": settings.postgresURL
                case "postgres.connections": String(settings.postgresConnections)
                case "tls.cert": settings.tlsCertificate
                case "tls.key": settings.tlsKey
                case "auth.bcryptCost": String(settings.bcryptCost)
                case "log.level": settings.logLevel
                case "auth.signUpBurst": String(settings.signUpBurst)
                case "events.pingSeconds": String(settings.pingSeconds)
                case "events.queueFrames": String(settings.socketQueueFrames)
                case "http.idleSeconds": String(settings.idleSeconds)
                case "http.connectionsPerAddress": String(settings.connectionsPerAddress)
                case "http.trustedProxies": ["10.0.0.9", "0:0::1"].allSatisfy(settings.trustedProxies.contains) ? value : "not both"
                case "budget.messagesPerMinute": String(settings.budget.messagesPerMinute)
                case "budget.fanOutMegabytesPerMinute": String(settings.budget.fanOutMegabytesPerMinute)
                case "budget.conversationsPerHour": String(settings.budget.conversationsPerHour)
                case "budget.renamesPerHour": String(settings.budget.renamesPerHour)
                case "budget.lookupsPerMinute": String(settings.budget.lookupsPerMinute)
                case "budget.requestsAtOnce": String(settings.requestsAtOnce)
                case "budget.uploadMegabytesPerHour": String(settings.budget.uploadMegabytesPerHour)
                case "files.maxBytes": String(settings.fileLimits.maxBytes)
                case "files.quotaMegabytes": settings.fileLimits.quota.map { String($0 >> 20) }
                case "registration.mode": settings.registration.rawValue
                case "retention.days": String(settings.retentionDays)
                case "registration.invitesBy": settings.invitesByEveryone ? "everyone" : "admins"
                default: nil
                }
            #expect(read == value, "\(variable) was not read")
        }
        #expect(throws: AppError(.usage, "the trusted proxy 'proxy.example' is not an IP address")) {
            try ServerSettings.load(commandLine: ["http.trustedProxies": "10.0.0.1,proxy.example"], configFile: nil, environment: [:])
        }
        let typo = try await run(["--port", "70000"], environment: ["MESSAGEAI_SERVER_AUTH_BCRYPTCOST": "5"])
        #expect(
            typo.errors.contains(
                "warning: MESSAGEAI_SERVER_AUTH_BCRYPTCOST names no setting and is ignored; did you mean MESSAGEAI_SERVER_AUTH_BCRYPT_COST?"))
    }

    /// Runs `messageai-server` to its end.
    private func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> (output: String, errors: String) {
        let process = Process()
        process.executableURL = ServerProcess.executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let finished = try await process.runToEnd()
        return (finished.output, finished.errors)
    }
}
