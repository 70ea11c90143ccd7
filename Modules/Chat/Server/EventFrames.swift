import Chat
import ChatAPI
import Foundation
import Kernel
import Synchronization

/// The text of each live event's frame, encoded once for every socket it goes to: the feed
/// hands an event to its readers one after another, so the frame asked for is nearly always
/// the one encoded last. A group of 50 costs one encoding a message, not 49. An event with
/// reactions is encoded again only for a reader who reacted or who is apart from someone who
/// did (`UserEvent.seen(by:apart:)`): everyone else shares the copy that only counts them.
public final class EventFrames: Sendable {
    private struct Encoded {
        let cursor: EventCursor
        /// The frame of a reader who reacted with none of the reactions and is apart from no one who did.
        let text: Data
        /// Who reacted, to whom `text` is not theirs.
        let reactors: Set<UserID>
    }

    private let last = Mutex<Encoded?>(nil)

    /// A cache of one frame, shared by every socket of a server.
    public init() {}

    /// The frame of `event` as `reader`, apart from `apart` (`ChatRules.apart`), sees it.
    public func text(of event: UserEvent, seenBy reader: UserID, apart: Set<UserID>) -> Data {
        guard let cursor = event.cursor else { return Self.text(of: event.seen(by: reader, apart: apart)) }
        let shared: Encoded
        if let hit = last.withLock({ $0 }), hit.cursor == cursor {
            shared = hit
        } else {
            let reactions = event.reactions?.reactions ?? [:]
            shared = Encoded(cursor: cursor, text: Self.text(of: event.seen(by: nil, apart: [])), reactors: Set(reactions.values.joined()))
            last.withLock { $0 = shared }
        }
        guard shared.reactors.contains(reader) || (!apart.isEmpty && !shared.reactors.isDisjoint(with: apart)) else { return shared.text }
        return Self.text(of: event.seen(by: reader, apart: apart))
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
