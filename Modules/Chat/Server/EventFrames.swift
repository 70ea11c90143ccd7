import Chat
import ChatAPI
import Foundation
import Kernel
import Synchronization

/// The text of each live event's frame, encoded once for every socket it goes to: the feed
/// hands an event to its readers one after another, so the frame asked for is nearly always
/// the one encoded last. A group of 50 costs one encoding a message, not 49.
public final class EventFrames: Sendable {
    private let last = Mutex<(cursor: EventCursor, text: Data)?>(nil)

    /// A cache of one frame, shared by every socket of a server.
    public init() {}

    /// The frame of `event`.
    public func text(of event: UserEvent) -> Data {
        guard let cursor = event.cursor else { return Self.text(of: event) }
        if let hit = last.withLock({ $0 }), hit.cursor == cursor { return hit.text }
        let text = Self.text(of: event)
        last.withLock { $0 = (cursor, text) }
        return text
    }

    /// The frame of `event`, a message's written by hand (`ChatSocket.Frames`).
    public static func text(of event: UserEvent) -> Data {
        ChatSocket.Frames.text(of: event).map { Data($0) } ?? text(of: event as any Encodable)
    }

    /// The frame of `reply`, a stored message's written by hand (`ChatSocket.Frames`).
    public static func text(of reply: ChatSocket.SendReply) -> Data {
        ChatSocket.Frames.text(of: reply).map { Data($0) } ?? text(of: reply as any Encodable)
    }

    /// The frame of `value`, encoded as every frame is (`WireFormat`).
    public static func text(of value: any Encodable) -> Data { (try? WireFormat.encoder().encode(value)) ?? Data() }
}
