import Chat
import Foundation
import GRDB
import Kernel
import SQLStore

/// How a message is read from the `messages` table, for every query of Chat's SQL side (SQLite's
/// and PostgreSQL's share the columns).
enum MessageRows {
    /// The columns `message(_:epoch:)` reads, in its order, for `SELECT`s over `messages m`; a
    /// query's own columns start at index `count`.
    static let columns =
        "m.id, m.conversation_id, m.sender_id, m.text, m.sent_at, m.seq, m.version, m.edited_at, m.deleted, m.reactions, "
        + "m.reply_to, q.text, q.deleted, m.mentions, m.attachments"
    /// How many `columns` there are.
    static let count = 15
    /// The join every `SELECT` of `columns` has after the one that brings `messages m`: the
    /// message a reply answers, `q`, as it is now.
    static let replyJoin = "LEFT JOIN messages q ON q.conversation_id = m.conversation_id AND q.id = m.reply_to"
    /// Where `m.seq` is among `columns`.
    static let seqIndex = 5

    /// A message from a row whose first columns are `columns` (by position: much faster than by
    /// name), with its cursor in `epoch` (none without one: a list preview needs none).
    /// - Throws: GRDB's `RowDecodingError` for a damaged row (a NULL or a wrong type).
    static func message(_ row: Row, epoch: String?) throws -> Message {
        Message(
            id: MessageID(try row.decode(String.self, atIndex: 0)), conversationID: ConversationID(try row.decode(String.self, atIndex: 1)),
            senderID: UserID(try row.decode(String.self, atIndex: 2)), text: try row.decode(atIndex: 3),
            sentAt: date(milliseconds: try row.decode(atIndex: 4)),
            cursor: try epoch.map { EventCursor(epoch: $0, position: try row.decode(Int64.self, atIndex: seqIndex)) },
            version: try row.decode(atIndex: 6), editedAt: try row.decode(Int?.self, atIndex: 7).map(date(milliseconds:)),
            deleted: try row.decode(atIndex: 8), reactions: try reactions(try row.decode(String?.self, atIndex: 9)),
            replyTo: try row.decode(String?.self, atIndex: 10).map { answered in
                Message.Reply(
                    id: MessageID(answered), text: try row.decode(String?.self, atIndex: 11) ?? "",
                    deleted: try row.decode(Bool?.self, atIndex: 12) ?? true)
            }, mentions: try people(try row.decode(String?.self, atIndex: 13)),
            attachments: try attachments(try row.decode(String?.self, atIndex: 14)))
    }

    /// A message's reactions as stored: a JSON object of emoji to the people who reacted (NULL for
    /// none). Every change of a message reads and writes them again, and they grow with how many
    /// react (1,900 reactors are 76 KB), so they are written with `WireText`, not `JSONEncoder`.
    static func reactionsText(_ reactions: [String: [UserID]]) -> String? {
        guard !reactions.isEmpty else { return nil }
        var text = WireText()
        text.map(reactions) { $0.value($1.map(\.rawValue)) }
        return String(decoding: text.bytes, as: UTF8.self)
    }

    /// The reactions `text` (`reactionsText`) holds: read by `unescapedReactions` when nothing in
    /// it is escaped (emoji and ids never are), by `JSONDecoder` otherwise.
    static func reactions(_ text: String?) throws -> [String: [UserID]] {
        guard let text else { return [:] }
        if let reactions = unescapedReactions(text) { return reactions }
        return try JSONDecoder().decode([String: [String]].self, from: Data(text.utf8)).mapValues { $0.map(UserID.init(rawValue:)) }
    }

    /// The reactions of `text` when it is `{"emoji":["id",…],…}` with no white space and no
    /// backslash, so that each string runs from one quote to the next; `nil` for anything else.
    static func unescapedReactions(_ text: String) -> [String: [UserID]]? {
        let bytes = Array(text.utf8)
        guard !bytes.contains(UInt8(ascii: "\\")) else { return nil }
        var index = 0
        func skip(_ byte: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: byte) else { return false }
            index += 1
            return true
        }
        func string() -> String? {
            guard skip("\"") else { return nil }
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += 1 }
            guard index < bytes.count else { return nil }
            index += 1
            return String(decoding: bytes[start..<(index - 1)], as: UTF8.self)
        }
        var reactions: [String: [UserID]] = [:]
        guard skip("{") else { return nil }
        if !skip("}") {
            repeat {
                guard let emoji = string(), skip(":"), skip("[") else { return nil }
                var people: [UserID] = []
                if !skip("]") {
                    repeat {
                        guard let person = string() else { return nil }
                        people.append(UserID(rawValue: person))
                    } while skip(",")
                    guard skip("]") else { return nil }
                }
                reactions[emoji] = people
            } while skip(",")
            guard skip("}") else { return nil }
        }
        return index == bytes.count ? reactions : nil
    }

    /// The change rows `sql` selects (`MessageChangeRows.columns` first), the first step of
    /// reading message changes; with `skippingDamaged`, a row that does not read is passed over.
    /// - Throws: GRDB's `RowDecodingError` for a damaged row.
    static func changeRows(_ db: Database, sql: String, arguments: StatementArguments, skippingDamaged: Bool) throws -> MessageChangeRows {
        MessageChangeRows(
            rows: try Row.fetchAll(db, sql: sql, arguments: arguments).compactMap { row in
                do {
                    return MessageChangeRows.Row(
                        seq: try row.decode(atIndex: 0), kind: try row.decode(atIndex: 1),
                        key: .init(conversationID: try row.decode(atIndex: 2), messageID: try row.decode(atIndex: 3)))
                } catch  where skippingDamaged {
                    return nil
                }
            })
    }

    /// The events of `changes`, the second step: each changed message read once, as it is now.
    /// - Throws: GRDB's `RowDecodingError` or `.internal` for a damaged row, unless `skippingDamaged`.
    static func events(of changes: MessageChangeRows, epoch: String, skippingDamaged: Bool, _ db: Database) throws -> [UserEvent] {
        let keys = changes.keys
        guard !keys.isEmpty else { return [] }
        let pairs = String(decoding: try JSONEncoder().encode(keys.map { [$0.conversationID, $0.messageID] }), as: UTF8.self)
        let rows = try Row.fetchAll(db, sql: ChatStatements.changedMessages, arguments: [pairs])
        let messages = try rows.compactMap { row in
            do { return try message(row, epoch: epoch) } catch  where skippingDamaged { return nil }
        }
        return try changes.events(messages, epoch: epoch, skippingDamaged: skippingDamaged)
    }

    /// People as a column keeps them: a JSON array of ids (NULL for none).
    static func peopleText(_ people: [UserID]) throws -> String? {
        people.isEmpty ? nil : try JSONIDs.encode(people)
    }

    /// The people `text` (`peopleText`) holds.
    static func people(_ text: String?) throws -> [UserID] {
        guard let text else { return [] }
        return try JSONDecoder().decode([String].self, from: Data(text.utf8)).map(UserID.init(rawValue:))
    }

    /// The files a message carries as a column keeps them: a JSON array of `Attachment`s (NULL for none).
    static func attachmentsText(_ attachments: [Attachment]) throws -> String? {
        attachments.isEmpty ? nil : String(decoding: try JSONEncoder().encode(attachments), as: UTF8.self)
    }

    /// The files `text` (`attachmentsText`) holds.
    static func attachments(_ text: String?) throws -> [Attachment] {
        guard let text else { return [] }
        return try JSONDecoder().decode([Attachment].self, from: Data(text.utf8))
    }

    /// `date` as whole milliseconds since 1970, as message times are stored.
    static func milliseconds(_ date: Date) -> Int { Int((date.timeIntervalSince1970 * 1_000).rounded(.down)) }

    /// Message times are stored as whole milliseconds since 1970, exactly.
    static func date(milliseconds: Int) -> Date { WireFormat.date(milliseconds: Int64(milliseconds)) }
}
