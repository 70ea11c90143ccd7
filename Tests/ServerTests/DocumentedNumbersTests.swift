import Auth
import Chat
import ConversationList
import Foundation
import Kernel
import MessageAIServer
import Search
import ServerSupport
import ServiceGraph
import Testing

/// Each number the README (or the manual in docs/ it leaves a detail to) states about limits and
/// budgets, stated here a second time: the document must say it in those words and the code must hold that number, so a change to either
/// alone fails (the other tests take their boundaries from the code's constants, which a changed
/// constant would move with them).
@Suite("Documented numbers")
struct DocumentedNumbersTests {
    /// A number as the README (or `document`) words it, and what the code holds.
    struct Documented: CustomTestStringConvertible, Sendable {
        let readme: String
        let code: Int
        let stated: Int
        var document = "README.md"
        var testDescription: String { readme }
    }

    static let defaults = ServerSettings(environment: [:])

    static let numbers: [Documented] = [
        // Budgets (README "Run a server").
        Documented(readme: "| messages | 300 a minute (`--messages-per-minute`) | 30 |", code: defaults.budget.messagesPerMinute, stated: 300),
        Documented(readme: "16 MiB a minute (`--fan-out-megabytes-per-minute`)", code: defaults.budget.fanOutMegabytesPerMinute, stated: 16),
        Documented(readme: "120 an hour (`--conversations-per-hour`) | 20 |", code: defaults.budget.conversationsPerHour, stated: 120),
        Documented(readme: "60 an hour (`--renames-per-hour`) | 5 |", code: defaults.budget.renamesPerHour, stated: 60),
        Documented(readme: "120 a minute (`--lookups-per-minute`) | 60 |", code: defaults.budget.lookupsPerMinute, stated: 120),
        Documented(
            readme: "1 GiB an hour (`--upload-megabytes-per-hour`) | all of it |", code: defaults.budget.uploadMegabytesPerHour, stated: 1_024),
        // Files (README "Files", "Run a server").
        Documented(readme: "A file is at most 100 MiB (`--files-max-bytes`", code: Int(defaults.fileLimits.maxBytes >> 20), stated: 100),
        Documented(readme: "most 1 GiB of them (`--files-quota-megabytes`)", code: Int((defaults.fileLimits.quota ?? 0) >> 30), stated: 1),
        Documented(readme: "A message carries up to 10 files", code: Validation.maxFilesPerMessage, stated: 10),
        Documented(readme: "at most 8 of one person's requests are served at once (`--requests-at-once`)", code: defaults.requestsAtOnce, stated: 8),
        // The server's settings.
        Documented(readme: "sign-up per address (20 at once", code: defaults.signUpBurst, stated: 20),
        Documented(readme: "for a minute is closed (`--idle-seconds`)", code: defaults.idleSeconds, stated: 60),
        Documented(readme: "an events socket silent for 30 s is pinged", code: defaults.pingSeconds, stated: 30),
        Documented(readme: "1,024 frames wait for it (`--socket-queue-frames`)", code: defaults.socketQueueFrames, stated: 1_024),
        Documented(readme: "hold 256 connections at once (`--connections-per-address`", code: defaults.connectionsPerAddress, stated: 256),
        // The wire's and the socket's bounds.
        Documented(readme: "Bodies are at most 256 KiB", code: APIRequestContext.maxBodyBytes, stated: 256 * 1_024),
        Documented(readme: "socket\nframes 64 KiB", code: EventSocketProtocol.maxFrameBytes, stated: 64 * 1_024),
        Documented(readme: "a socket has at most 64 sends being stored at once", code: EventSocketProtocol.maxPendingRequests, stated: 64),
        Documented(readme: "up to 8×N sockets", code: EventSocketProtocol.socketsPerUser, stated: 8),
        // What people type.
        Documented(readme: "| message | 1–4,000 characters", code: Validation.maxMessageLength, stated: 4_000),
        Documented(readme: "and at most 16,000 bytes after trimming", code: Validation.maxMessageBytes, stated: 16_000),
        Documented(readme: "| status | at most 140 characters", code: Validation.maxStatusLength, stated: 140),
        Documented(readme: "140 characters and 560 bytes", code: Validation.maxStatusBytes, stated: 560),
        // Chat's and Search's rules.
        Documented(readme: "within 24 hours of sending it and at most 10 times", code: ChatRules.maxEdits, stated: 10),
        Documented(readme: "within 24 hours of sending it", code: Int(ChatRules.editWindow / 3_600), stated: 24),
        Documented(readme: "at most 20 kinds on a message, 10 of yours", code: ChatRules.maxReactionKinds, stated: 20),
        Documented(readme: "20 kinds on a message, 10 of yours", code: ChatRules.maxReactionsPerPerson, stated: 10),
        Documented(readme: "and at most 20 people (later names are plain text)", code: Validation.maxMentions, stated: 20),
        // What an event and a page weigh, and what reads cost.
        Documented(readme: "for a reply, its quote's 320 bytes", code: Message.Reply.quoteBytes, stated: 320),
        Documented(readme: "quotes at most 80 characters and 320 bytes", code: Message.Reply.quoteLength, stated: 80),
        Documented(readme: "one more per 256 KiB they return", code: ChatRules.readBytesPerLookup, stated: 256 * 1_024),
        Documented(readme: "stops at the one that brings it to 1 MiB", code: ChatRules.pageBytes, stated: 1_024 * 1_024),
        Documented(readme: "A page holds at most 500 messages", code: ChatRules.catchUpLimit, stated: 500),
        Documented(readme: "how many reacted with each of at most 20 emoji", code: ChatRules.maxReactionKinds, stated: 20),
        Documented(readme: "which of them (at\nmost 10) the reader added", code: ChatRules.maxReactionsPerPerson, stated: 10),
        Documented(readme: "a new group is written 100 people to a transaction", code: ConversationRules.peoplePerWrite, stated: 100),
        Documented(readme: "query is at most 256 bytes and 8 terms", code: SearchQuery.maxBytes, stated: 256, document: "docs/usage.md"),
        Documented(readme: "at most 256 bytes and 8 terms (exit 65", code: SearchQuery.maxTerms, stated: 8),
        Documented(readme: "newest first: at most 2,000 a search", code: SearchRules.maxCandidates, stated: 2_000, document: "docs/usage.md"),
        Documented(readme: "twice as many each time, up to 500 at once", code: SearchRules.maxBatch, stated: 500, document: "docs/usage.md"),
        Documented(
            readme: "one more for each 100 messages it checks past the first 100", code: SearchRules.candidatesPerLookup, stated: 100,
            document: "docs/usage.md"),
        Documented(
            readme: "past the first 100, so at most 20", code: SearchRules.maxCandidates / SearchRules.candidatesPerLookup, stated: 20,
            document: "docs/usage.md"),
        Documented(
            readme: "each 100 conversations of yours it looks in", code: SearchRules.conversationsPerLookup, stated: 100, document: "docs/usage.md"),
        Documented(
            readme: "Every 429 over HTTP is answered after 200 ms", code: Int(ErrorMiddleware.refusalPause / .milliseconds(1)), stated: 200),
        // Bots, tokens and webhooks.
        Documented(readme: "add NAME CHAT # at most 10", code: BotRules.maxBotsPerOwner, stated: 10),
        Documented(readme: "(`mai_…`, 1–365 days, 90 by default)", code: Int(BotRules.maxLifetime / 86_400), stated: 365),
        Documented(readme: "1–365 days, 90 by default)", code: Int(BotRules.defaultLifetime / 86_400), stated: 90),
        Documented(readme: "kept as digests; at most 50 a person", code: BotRules.maxCredentialsPerOwner, stated: 50),
        Documented(
            readme: "a revoked token is refused within 2 s everywhere",
            code: Int(GraphOptions(backend: .memory, sqlitePath: "").verificationCacheTime.components.seconds), stated: 2),
        Documented(
            readme: "one address gets 30 of those at once, then one a second", code: BotRules.hookGuessesAtOnce, stated: 30,
            document: "docs/protocol.md"),
        // Counts of test cases: HostileRequestTests states the same count of its cases.
        Documented(readme: "28 kinds of hostile request", code: 28, stated: 28),
    ]

    static let readme = text(of: "README.md")

    /// The text of `document` (a path from the repository's root), white space folded: a line
    /// break is a space to its reader.
    static func text(of document: String) -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)).map(folded) ?? ""
    }

    static func folded(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Each budget's "at once" column: how many of the action a new person may spend at once
    /// under the default limits, counted by spending until refused.
    static let atOnce: [(readme: String, action: UsageBudget.Action, stated: Int)] = [
        ("| messages | 300 a minute (`--messages-per-minute`) | 30 |", .message, 30),
        ("120 an hour (`--conversations-per-hour`) | 20 |", .conversation, 20),
        ("60 an hour (`--renames-per-hour`) | 5 |", .rename, 5),
        ("120 a minute (`--lookups-per-minute`) | 60 |", .lookup, 60),
    ]

    @Test("a budget's spends at once are what the README's table says")
    func spentAtOnce() {
        let budget = ServerBudget(Self.defaults.budget).budget
        for (readme, action, stated) in Self.atOnce {
            let person = UserID.random()
            var spent = 0
            while spent <= stated, (try? budget.spend(action, by: person)) != nil { spent += 1 }
            #expect(spent == stated, "\(action): \(spent) at once, where the README says \(stated)")
            #expect(Self.readme.contains(Self.folded(readme)))
        }
    }

    @Test("the README stays a manual for users and operators: at most 25 KB (history and figures live in docs/)")
    func readmeStaysAManual() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let bytes = try Data(contentsOf: root.appendingPathComponent("README.md")).count
        #expect(bytes > 1_000 && bytes <= 25 * 1_024, "README.md is \(bytes) bytes")
    }

    @Test("the document states it and the code holds it", arguments: numbers)
    func statedAndHeld(_ number: Documented) {
        #expect(
            Self.text(of: number.document).contains(Self.folded(number.readme)),
            "\(number.document) no longer says \(number.readme.debugDescription)")
        #expect(number.code == number.stated, "the code holds \(number.code) where the README says \(number.stated)")
    }
}
