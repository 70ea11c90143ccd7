import AppContainer
import Auth
import CLIKit
import Chat
import ConversationList
import Foundation
import Kernel
import Profile

/// Everything of the signed-in person's as one JSON document (`messageai export`), written as it
/// is read, a page at a time, so that neither a big account nor a slow server holds it all in
/// memory: the account and profile, then each conversation they are a member of (title, members
/// and their names, its messages as they can read them, newest first, with reactions and the
/// files' metadata, and its read receipts). Keys and dates as `--json` writes them. It reads
/// through the same services as every other command, so it works on every backend and shows
/// nothing the person could not read.
@MainActor
struct AccountExport {
    /// What the document says it is, for a program that reads it later.
    static let format = "messageai-export", version = 1

    /// A conversation's head in the document.
    private struct Head: Encodable {
        struct Member: Encodable {
            let id: UserID
            let name: String?
        }
        let id: ConversationID
        let title: String
        let isGroup: Bool
        let members: [Member]
    }

    let container: AppContainer

    /// The document's bytes, in chunks as they are read; `progress` hears the conversations and
    /// messages written so far after each conversation.
    func chunks(progress: @escaping @MainActor (_ conversations: Int, _ messages: Int) -> Void) -> AsyncThrowingStream<[UInt8], any Error> {
        let (stream, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        let task = Task { @MainActor in
            do {
                try await write({ continuation.yield(Array($0.utf8)) }, progress: progress)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func write(_ out: (String) -> Void, progress: (Int, Int) -> Void) async throws {
        guard let account = try await container.auth.currentAccount() else { throw AppError.notSignedIn }
        out(
            "{\"format\":\"\(Self.format)\",\"version\":\(Self.version),\"exportedAt\":\(try JSONLines.encode(Date())),\n"
                + "\"account\":\(try JSONLines.encode(account)),\n\"profile\":\(try JSONLines.encode(try await container.profiles.myProfile())),\n"
                + "\"conversations\":[")
        var (after, conversations, messages): (ConversationID?, Int, Int) = (nil, 0, 0)
        while true {
            try Task.checkCancellation()
            let page = try await container.conversations.conversations(limit: ConversationRules.maxPage, after: after)
            for summary in page.conversations {
                out((conversations == 0 ? "\n" : ",\n") + (try await head(of: summary)).dropLast() + ",\"messages\":[")
                messages += try await writeMessages(of: summary.id, out)
                out("],\"receipts\":\(try JSONLines.encode(try await container.chat.receipts(in: summary.id)))}")
                conversations += 1
                progress(conversations, messages)
            }
            guard page.hasMore, let last = page.conversations.last else { break }
            after = last.id
        }
        out("\n]}\n")
    }

    /// A conversation's head as JSON: its id, title and members with their names.
    private func head(of summary: ConversationSummary) async throws -> String {
        let names = try await container.profiles.displayNames(of: summary.memberIDs)
        return try JSONLines.encode(
            Head(id: summary.id, title: summary.title, isGroup: summary.isGroup, members: summary.memberIDs.map { .init(id: $0, name: names[$0]) }))
    }

    /// Writes the messages of a conversation, newest first, a page at a time; how many.
    private func writeMessages(of conversation: ConversationID, _ out: (String) -> Void) async throws -> Int {
        var page = try await container.chat.latestMessages(in: conversation, limit: ChatRules.catchUpLimit)
        var written = 0
        while true {
            try Task.checkCancellation()
            for message in page.messages.reversed() {
                out((written == 0 ? "\n" : ",\n") + (try JSONLines.encode(message)))
                written += 1
            }
            guard page.hasOlder, let oldest = page.messages.first else { return written }
            page = try await container.chat.messages(in: conversation, before: oldest.id, limit: ChatRules.catchUpLimit)
        }
    }
}
