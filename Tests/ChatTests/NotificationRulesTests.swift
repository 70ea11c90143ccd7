import Chat
import Foundation
import Kernel
import Testing

/// Who is told of a message that arrives, and why: once for every front end.
@Suite("Notification rules")
struct NotificationRulesTests {
    let ada = UserID("u-ada"), bob = UserID("u-bob")
    let now = Date(timeIntervalSince1970: 1_000_000)

    func message(from sender: UserID, in conversation: String = "c1", mentions: [UserID] = [], age: TimeInterval = 1, deleted: Bool = false)
        -> Message
    {
        Message(
            id: .random(), conversationID: ConversationID(conversation), senderID: sender, text: "hi", sentAt: now - age, deleted: deleted,
            mentions: mentions)
    }

    func reason(_ message: Message, direct: Bool, level: NotificationLevel? = nil, open: String? = nil, apart: Set<UserID> = [])
        -> NotificationRules.Reason?
    {
        NotificationRules.reason(
            for: message, reader: ada, isDirect: direct, level: level ?? .standard(isDirect: direct), open: open.map { ConversationID($0) },
            apart: apart, now: now)
    }

    @Test("by default a one-to-one tells of every message, a group of mentions only")
    func defaults() {
        #expect(reason(message(from: bob), direct: true) == .direct)
        #expect(reason(message(from: bob, mentions: [ada]), direct: true) == .mention)
        #expect(reason(message(from: bob), direct: false) == nil)
        #expect(reason(message(from: bob, mentions: [ada]), direct: false) == .mention)
        #expect(reason(message(from: bob, mentions: [bob]), direct: false) == nil, "someone else mentioned")
    }

    @Test("a level the reader chose: all tells of every message, mentions of mentions, none of nothing")
    func levels() {
        #expect(reason(message(from: bob), direct: false, level: .all) == .message)
        #expect(reason(message(from: bob), direct: true, level: .mentions) == nil)
        #expect(reason(message(from: bob, mentions: [ada]), direct: true, level: NotificationLevel.none) == nil)
    }

    @Test("never of one's own message, the conversation one looks at, a caught-up backlog, a deleted message or someone blocked")
    func never() {
        #expect(reason(message(from: ada), direct: true) == nil)
        #expect(reason(message(from: bob), direct: true, open: "c1") == nil)
        #expect(reason(message(from: bob), direct: true, open: "c2") == .direct)
        #expect(reason(message(from: bob, age: NotificationRules.backlogAge + 1), direct: true) == nil)
        #expect(reason(message(from: bob, age: NotificationRules.backlogAge), direct: true) == .direct)
        #expect(reason(message(from: bob, deleted: true), direct: true) == nil)
        #expect(reason(message(from: bob, mentions: [ada]), direct: false, apart: [bob]) == nil)
    }
}
