import Chat
import Foundation
import Kernel
import Testing

@Suite("User events")
struct UserEventTests {
    let conversation = ConversationID("c1")

    func message(_ id: String, reactions: [String: [UserID]] = [:]) -> Message {
        Message(
            id: MessageID(id), conversationID: conversation, senderID: UserID("u-ada"), text: "text of \(id)",
            sentAt: Date(timeIntervalSince1970: 0), reactions: reactions)
    }

    func cursor(_ position: Int64) -> EventCursor { EventCursor(epoch: "e", position: position) }

    @Test("a reaction's event carries the message's reactions, not its text; an edit's carries the message")
    func changedEvents() {
        let liked = message("m1", reactions: ["👍": [UserID("u-bob")]])
        #expect(UserEvent.changed(.reacted, liked, cursor: cursor(2)) == .reacted(MessageReactions(of: liked), cursor: cursor(2)))
        #expect(UserEvent.changed(.edited, liked, cursor: cursor(3)) == .messageChanged(.edited, liked, cursor: cursor(3)))
        #expect(UserEvent.changed(.reacted, liked, cursor: cursor(2)).wireBytes < liked.wireBytes)
    }

    @Test("of the reactions to a message read together, all but the last are stale; other messages' and other kinds of events are not")
    func staleReactions() {
        let one = message("m1"), two = message("m2")
        let events: [UserEvent] = [
            .changed(.reacted, one, cursor: cursor(1)), .changed(.reacted, two, cursor: cursor(2)), .changed(.edited, one, cursor: cursor(3)),
            .changed(.reacted, one, cursor: cursor(4)), .message(message("m3")), .changed(.reacted, one, cursor: cursor(6)),
        ]
        #expect(UserEvent.staleReactions(in: events) == [0, 3])
        #expect(UserEvent.staleReactions(in: Array(events.prefix(3))).isEmpty)
    }
}
