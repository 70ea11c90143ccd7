import Foundation
import Kernel

/// What a tool posts to an incoming webhook: the subset of Slack's incoming-webhook message that
/// Alertmanager, Grafana and most CI systems send (`text`, `username`, `attachments` with their
/// texts and fields). Anything else in the body is ignored. It becomes one message of plain
/// lines (`plainText`): Markdown stays as its characters, and control characters are dropped, so
/// that nothing a tool sends reaches a terminal as an escape.
public struct SlackMessage: Codable, Equatable, Sendable {
    /// Longest text of one field read, in bytes.
    public static let maxFieldBytes = 16_000
    /// Most attachments read, and fields in one.
    public static let maxAttachments = 20, maxFields = 50

    /// One attachment: a block of lines.
    public struct Attachment: Codable, Equatable, Sendable {
        /// A short field: `title: value`.
        public struct Field: Codable, Equatable, Sendable {
            public var title: String?
            public var value: String?

            public init(title: String?, value: String?) {
                self.title = title
                self.value = value
            }
        }

        public var pretext: String?
        public var title: String?
        /// Where the title links to (`title_link`).
        public var titleLink: String?
        public var text: String?
        public var fallback: String?
        public var footer: String?
        public var fields: [Field]?

        private enum CodingKeys: String, CodingKey {
            case pretext, title, text, fallback, footer, fields
            case titleLink = "title_link"
        }

        public init(
            pretext: String? = nil, title: String? = nil, titleLink: String? = nil, text: String? = nil, fallback: String? = nil,
            footer: String? = nil, fields: [Field]? = nil
        ) {
            self.pretext = pretext
            self.title = title
            self.titleLink = titleLink
            self.text = text
            self.fallback = fallback
            self.footer = footer
            self.fields = fields
        }
    }

    public var text: String?
    public var username: String?
    public var attachments: [Attachment]?

    public init(text: String? = nil, username: String? = nil, attachments: [Attachment]? = nil) {
        self.text = text
        self.username = username
        self.attachments = attachments
    }

    /// The message as plain lines: the sender's name in brackets when it gave one, the text, then
    /// each attachment's pretext, title (and its link), text, fields (`title: value`) and footer,
    /// or its fallback when it has none of them; Slack's `<url|label>` links and `&amp;` escapes
    /// undone; cut to the longest message (`Validation.maxMessageLength`), marked with `…`.
    /// - Throws: `.invalidInput` when nothing is left to post.
    public func plainText() throws -> String {
        var lines: [String] = []
        if let username = Self.plain(username), !username.isEmpty { lines.append("[\(username)]") }
        lines.append(Self.plain(text) ?? "")
        for attachment in (attachments ?? []).prefix(Self.maxAttachments) {
            var block: [String] = [Self.plain(attachment.pretext) ?? ""]
            if let title = Self.plain(attachment.title), !title.isEmpty {
                block.append(Self.plain(attachment.titleLink).map { $0.isEmpty ? title : "\(title) (\($0))" } ?? title)
            }
            block.append(Self.plain(attachment.text) ?? "")
            for field in (attachment.fields ?? []).prefix(Self.maxFields) {
                let (title, value) = (Self.plain(field.title) ?? "", Self.plain(field.value) ?? "")
                block.append(title.isEmpty ? value : "\(title): \(value)")
            }
            block.append(Self.plain(attachment.footer) ?? "")
            if block.allSatisfy(\.isEmpty) { block = [Self.plain(attachment.fallback) ?? ""] }
            lines += block
        }
        let text = lines.filter { !$0.isEmpty }.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw AppError(.invalidInput, "the post has no text: give text or attachments") }
        guard text.count > Validation.maxMessageLength else { return text }
        return String(text.prefix(Validation.maxMessageLength - 1)) + "…"
    }

    /// `raw` as plain text: Slack's links as `label (url)`, its three escapes undone, control
    /// characters but line breaks and tabs dropped.
    static func plain(_ raw: String?) -> String? {
        guard let raw else { return nil }
        let linked = raw.replacing(/<([^<>|\s]+)\|([^<>]+)>/) { "\($0.output.2) (\($0.output.1))" }
            .replacing(/<([^<>|\s]+)>/) { String($0.output.1) }
        let unescaped = linked.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
        let kept = unescaped.unicodeScalars.filter {
            $0 == "\n" || $0 == "\t" || !($0.properties.generalCategory == .control || $0.properties.generalCategory == .format && $0.value != 0x200D)
        }
        return String(String.UnicodeScalarView(kept)).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
