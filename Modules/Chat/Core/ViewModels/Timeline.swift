import Foundation
import Kernel

/// What the chat screen shows: the stored messages oldest first, and this device's own sends
/// on their way (pending, queued in the outbox, or failed).
public struct Timeline: Equatable, Sendable {
    /// One line of the timeline: a stored message, or a send of this device's not stored (yet).
    public struct Entry: Equatable, Sendable, Identifiable {
        /// Where a send of this device's is.
        public enum Delivery: Equatable, Sendable {
            /// Shown locally, not yet acknowledged.
            case pending
            /// The server could not be reached: kept in this device's outbox and sent with the
            /// same id when it is back.
            case queued
            /// The send failed, with the backend's reason when it gave one; it can be retried
            /// with the same id.
            case failed(reason: String?)
            /// Stored by the backend, as it stored it.
            case sent(Message)
        }

        /// The message's id, chosen by the sender.
        public let id: MessageID
        /// The text as sent.
        public let text: String
        /// When it was typed, or the backend's time once stored.
        public let sentAt: Date
        /// Where it is.
        public let delivery: Delivery

        /// An entry for a stored message.
        public init(_ message: Message) {
            id = message.id
            text = message.text
            sentAt = message.sentAt
            delivery = .sent(message)
        }

        /// An entry for this device's own send of `text` as `id`, not stored.
        public init(sending id: MessageID, text: String, sentAt: Date = .now, delivery: Delivery) {
            self.id = id
            self.text = text
            self.sentAt = sentAt
            self.delivery = delivery
        }

        /// The stored message, once the backend has it.
        public var message: Message? {
            if case .sent(let message) = delivery { message } else { nil }
        }

        /// Who sent it; `nil` for this device's own sends not stored yet.
        public var senderID: UserID? { message?.senderID }

        /// Whether the send failed.
        public var isFailed: Bool {
            if case .failed = delivery { true } else { false }
        }
    }

    /// Entries, oldest first.
    public internal(set) var entries: [Entry]
    /// True when older messages can be paged in.
    public internal(set) var hasOlder: Bool
    /// True when newer stored messages than these exist: paging back let go of them
    /// (`maxStored`), and `ChatViewModel.open` comes back to them.
    public internal(set) var hasNewer = false

    /// Most stored messages a timeline holds. Paging back past them lets go of the newest, so
    /// that scrolling through any history holds a bounded window of it.
    public static let maxStored = 1_000

    /// A timeline of stored `messages` and local `sending` entries after them.
    public init(messages: [Message] = [], sending: [Entry] = [], hasOlder: Bool = false) {
        entries = messages.map(Entry.init) + sending
        self.hasOlder = hasOlder
    }

    /// Adds an entry, or replaces the one with the same id (a pending send that was stored).
    mutating func upsert(_ entry: Entry) {
        if let index = entries.firstIndex(where: { $0.id == entry.id }) {
            entries[index] = entry
        } else {
            entries.append(entry)
        }
    }

    /// Lets go of the newest stored entries past `maxStored` (this device's sends not stored
    /// stay), marking that newer ones exist.
    mutating func keepingWindow() {
        let excess = entries.lazy.filter { $0.message != nil }.count - Self.maxStored
        guard excess > 0 else { return }
        hasNewer = true
        // Newest first, in one pass: removing entries one at a time would move the rest each time.
        var kept: [Entry] = [], dropped = 0
        kept.reserveCapacity(entries.count - excess)
        for entry in entries.reversed() {
            if dropped < excess, entry.message != nil { dropped += 1 } else { kept.append(entry) }
        }
        entries = kept.reversed()
    }

    /// The oldest message the backend has stored: the cursor for paging back.
    var oldestStored: Message? { entries.lazy.compactMap(\.message).first }
}
