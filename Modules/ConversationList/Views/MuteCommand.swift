import ArgumentParser
import CLIKit
import ConversationList
import Foundation
import Kernel

/// `messageai mute CHAT [--mentions] [--until WHEN]` and `messageai unmute CHAT`.
struct MuteCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "mute", abstract: "Quiet a conversation: no notifications, and its unread messages leave the hotlist.",
        discussion: """
            With --mentions, a message that mentions you still notifies and still shows. --until ends it: a duration \
            (30m, 2h, 3d, 1w) or a time (2026-12-24T18:00:00Z); without it the mute lasts until `messageai unmute`. \
            Every device of yours follows.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, list number, title or name.") var chat: String
    @Flag(help: "Still be told of messages that mention you.") var mentions = false
    @Option(help: "When it ends: a duration (30m, 2h, 3d, 1w) or a time (ISO 8601).") var until: String?

    func run(in context: CLIContext) async throws {
        let until = try until.map { try MuteEnd.parse($0, now: Date()) }
        try await Self.choose(mentions ? .mentions : NotificationLevel.none, until: until, in: chat, context: context)
    }

    /// Chooses `level` until `until` for `chat` and says so.
    @MainActor static func choose(_ level: NotificationLevel?, until: Date?, in chat: String, context: CLIContext) async throws {
        let id = try await context.lookup.conversationID(for: chat)
        let model = try context.factory(ConversationListFactory.self).makeConversationListViewModel()
        await model.chooseNotifications(level, until: until, in: id)
        _ = try context.require(model.notificationsChosen)
        try context.emit(
            [
                "conversationId": id.rawValue, "level": level?.rawValue ?? "standard",
                "until": until.map { ISO8601DateFormatter().string(from: $0) } ?? "",
            ],
            text: [MuteEnd.describe(level, until: until)])
    }
}

/// `messageai unmute CHAT`
struct UnmuteCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "unmute", abstract: "Hear a conversation again at its standard level (every message of a one-to-one, mentions in a group).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, list number, title or name.") var chat: String

    func run(in context: CLIContext) async throws { try await MuteCommand.choose(nil, until: nil, in: chat, context: context) }
}

/// When a mute ends, as people type it, and what a choice says back.
enum MuteEnd {
    /// `text` as a time: a duration from `now` (`30m`, `2h`, `3d`, `1w`) or an ISO 8601 time.
    /// - Throws: `.invalidInput` for anything else.
    static func parse(_ text: String, now: Date) throws -> Date {
        if let match = text.wholeMatch(of: /(\d{1,6})([mhdw])/), let count = Double(match.1) {
            let unit: Double =
                switch match.2 {
                case "m": 60
                case "h": 3_600
                case "d": 86_400
                default: 604_800
                }
            return now.addingTimeInterval(count * unit)
        }
        if let date = ISO8601DateFormatter().date(from: text) { return date }
        throw AppError(.invalidInput, "\(AppError.quoting(text)) is not a duration (30m, 2h, 3d, 1w) or an ISO 8601 time")
    }

    /// What a choice of `level` until `until` says.
    static func describe(_ level: NotificationLevel?, until: Date?) -> String {
        let what =
            switch level {
            case nil: "Standard notifications again."
            case .none?: "Muted."
            case .mentions?: "Muted but for mentions."
            case .all?: "Every message notifies."
            }
        guard let until else { return what }
        return String(what.dropLast()) + " until " + until.formatted(date: .abbreviated, time: .shortened) + "."
    }
}
