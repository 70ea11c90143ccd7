import Foundation
import GRDB
import Kernel

/// Bulk fixtures written straight into the schema, because building a million messages one
/// acknowledged send at a time would take minutes. Only fixtures are written this way; every
/// measured operation goes through the services.
enum Seeder {
    static let text = String(repeating: "0123456789", count: 10)

    /// Appends `count` messages of 100 characters to a conversation, alternating two senders,
    /// the last sent `age` ago, a millisecond apart.
    static func messages(
        _ count: Int, in conversation: ConversationID, from senders: [UserID], path: String,
        text: (Int) -> String = { _ in Seeder.text }, age: TimeInterval = 0
    ) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            let insert = try db.makeStatement(
                sql: """
                    INSERT INTO messages (id, conversation_id, position, sender_id, text, sent_at) VALUES (?, ?, ?, ?, ?, ?)
                    """)
            let start = Int((Date().timeIntervalSince1970 - age) * 1_000) - count
            for position in 1...count {
                try insert.execute(arguments: [
                    MessageID.random().rawValue, conversation.rawValue, position,
                    senders[position % senders.count].rawValue, text(position), start + position,
                ])
            }
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO chat_activity (conversation_id, message_count, last_seq) VALUES (?, ?, ?)
                    """, arguments: [conversation.rawValue, count, db.lastInsertedRowID])
            // The store's order goes on after them, as after sends.
            try db.execute(sql: "UPDATE store_sequence SET value = max(value, (SELECT coalesce(max(seq), 0) FROM messages))")
        }
        try queue.close()
    }

    /// Puts `me` into `count` one-to-one conversations with new users, each with one message from
    /// the other person (so every row has a preview and one unread message).
    static func conversations(_ count: Int, for me: UserID, path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            let now = Int(Date().timeIntervalSince1970 * 1_000)
            for index in 0..<count {
                let other = UserID.random(), conversation = ConversationID.random()
                try db.execute(
                    sql: "INSERT INTO profiles (id, email, display_name, name_key) VALUES (?, ?, ?, ?)",
                    arguments: [other.rawValue, "u\(index)@bench.io", "User \(index)", "user \(index)"])
                try db.execute(
                    sql: "INSERT INTO conversations (id, direct_key, created_at, members) VALUES (?, ?, ?, ?)",
                    arguments: [
                        conversation.rawValue, "\(me.rawValue)|\(other.rawValue)", Double(now) / 1_000,
                        "\(me.rawValue),\(other.rawValue)",
                    ])
                for member in [me, other] {
                    try db.execute(
                        sql: "INSERT INTO conversation_members (user_id, conversation_id) VALUES (?, ?)",
                        arguments: [member.rawValue, conversation.rawValue])
                }
                try db.execute(
                    sql: """
                        INSERT INTO messages (id, conversation_id, position, sender_id, text, sent_at) VALUES (?, ?, 1, ?, ?, ?)
                        """, arguments: [MessageID.random().rawValue, conversation.rawValue, other.rawValue, "hello \(index)", now - index])
                try db.execute(
                    sql: "INSERT INTO chat_activity (conversation_id, message_count, last_seq) VALUES (?, 1, ?)",
                    arguments: [conversation.rawValue, db.lastInsertedRowID])
            }
        }
        try queue.close()
    }

    /// Folds the WAL into the main file, so its size is the data's.
    static func checkpoint(_ path: String) throws {
        let queue = try DatabaseQueue(path: path)
        _ = try queue.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try queue.close()
    }
}
