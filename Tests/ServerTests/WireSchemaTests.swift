import Auth
import AuthAPI
import Chat
import ChatAPI
import ConversationList
import ConversationListAPI
import Foundation
import Kernel
import Profile
import ProfileAPI
import Search
import SearchAPI
import Testing

/// Each wire type's schema describes what it really encodes: the fields it writes are the
/// schema's properties, with their JSON types, and every required one is there.
@Suite("Wire schemas", .timeLimit(.minutes(1)))
struct WireSchemaTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000.123)
    static let message = Message(id: MessageID("m1"), conversationID: ConversationID("c1"), senderID: UserID("u1"), text: "hi\nthere", sentAt: now)
    static let summary = ConversationSummary(
        conversation: Conversation(id: ConversationID("c1"), title: nil, memberIDs: [UserID("u1"), UserID("u2")], createdAt: now), title: "Grace",
        activity: ConversationActivity(
            lastMessage: MessagePreview(id: MessageID("m1"), senderID: UserID("u1"), text: "hi", sentAt: now), unreadCount: 2,
            unreadMentions: 1))
    static let mentioning = Message(
        id: MessageID("m2"), conversationID: ConversationID("c1"), senderID: UserID("u2"), text: "@Ada hi", sentAt: now,
        mentions: [UserID("u1")])

    static let samples: [(String, any WireType, WireSchema)] = [
        ("Account", Account(id: UserID("u1"), email: "ada@example.com"), Account.schema),
        (
            "SessionReply", SessionReply(IssuedSession(account: Account(id: UserID("u1"), email: "a@b.c"), token: String(repeating: "a", count: 64))),
            SessionReply.schema
        ),
        ("SignUpRequest", SignUpRequest(email: "a@b.c", displayName: "Ada", password: "password1"), SignUpRequest.schema),
        ("PasswordChange", PasswordChange(current: "a", new: "password2"), PasswordChange.schema),
        ("Profile (own)", Profile(id: UserID("u1"), email: "a@b.c", displayName: "Ada", status: "here"), Profile.schema),
        ("Profile (other's)", Profile(id: UserID("u2"), email: nil, displayName: "Grace"), Profile.schema),
        ("ProfileEdit", ProfileEdit(displayName: nil, status: "away"), ProfileEdit.schema),
        ("DisplayNames", DisplayNames([UserID("u1"): "Ada"]), DisplayNames.schema),
        ("NameQuery", NameQuery([UserID("u1"), UserID("u2")]), NameQuery.schema),
        ("ConversationSummary", summary, ConversationSummary.schema),
        ("ConversationListReply", ConversationListReply(ConversationPage(conversations: [summary], hasMore: true)), ConversationListReply.schema),
        (
            "InvitationList",
            InvitationList([
                Invitation(
                    id: ConversationID("c1"), title: "Team", isGroup: true, inviterID: UserID("u2"),
                    inviterName: "Grace", memberCount: 3, invitedAt: Date(timeIntervalSince1970: 1_700_000_000))
            ]),
            InvitationList.schema
        ),
        ("BlockList", BlockList([UserID("u2")]), BlockList.schema),
        ("GroupRequest", GroupRequest(title: "Team", memberIDs: [UserID("u2")]), GroupRequest.schema),
        ("DirectRequest", DirectRequest(userID: UserID("u2")), DirectRequest.schema),
        ("Message", message, Message.schema),
        ("Message (mentioning)", mentioning, Message.schema),
        (
            "MentionPage",
            MentionPage(
                mentions: [
                    Mention(
                        SearchCorpusMessage(
                            id: MessageID("m2"), conversationID: ConversationID("c1"), senderID: UserID("u2"),
                            sentAt: now, text: "@Ada hi", key: 42))
                ], next: 42, hasMore: false),
            MentionPage.schema
        ),
        ("MessagePageReply", MessagePageReply(MessagePage(messages: [message], hasOlder: true)), MessagePageReply.schema),
        ("UserEvent (message)", UserEvent.message(message), UserEvent.schema),
        ("UserEvent (conversation added)", UserEvent.change(.conversationAdded(ConversationID("c1")), cursor: cursor), UserEvent.schema),
        ("UserEvent (read marker)", UserEvent.change(.readMarkerMoved(in: ConversationID("c1"), by: UserID("u1")), cursor: cursor), UserEvent.schema),
        ("UserEvent (renamed)", UserEvent.change(.profileRenamed(UserID("u2"), to: "Grace"), cursor: cursor), UserEvent.schema),
        ("EventList", EventList([.change(.conversationAdded(ConversationID("c1")), cursor: cursor)]), EventList.schema),
        ("SendRequest", SendRequest(text: "hi"), SendRequest.schema),
        ("WireError", WireError(AppError(.forbidden, "no")), WireError.schema),
    ]

    @Test("samples encode to what their schema describes", arguments: samples.map(\.0))
    func sampleMatchesSchema(_ name: String) throws {
        let (_, value, schema) = try #require(Self.samples.first { $0.0 == name })
        let json = try JSONSerialization.jsonObject(with: try WireFormat.encoder().encode(value), options: .fragmentsAllowed)
        #expect(Self.problems(json, schema, at: name) == [])
    }

    static let cursor = EventCursor(epoch: "e1", position: 7)

    @Test("every kind of event survives the wire, and an event of another version is refused")
    func eventsRoundTrip() throws {
        for sample in Self.samples.compactMap({ $0.1 as? UserEvent }) {
            #expect(try WireFormat.decoder().decode(UserEvent.self, from: try WireFormat.encoder().encode(sample)) == sample)
        }
        let newer = Data(#"{"v":2,"type":"chat.read","cursor":"e1.7","event":{"conversationID":"c1","userID":"u1"}}"#.utf8)
        #expect(throws: DecodingError.self) { try WireFormat.decoder().decode(UserEvent.self, from: newer) }
        let incomplete = Data(#"{"v":1,"type":"chat.read","cursor":"e1.7","event":{"conversationID":"c1"}}"#.utf8)
        #expect(throws: (any Error).self) { try WireFormat.decoder().decode(UserEvent.self, from: incomplete) }
    }

    @Test("a time survives the wire to the millisecond")
    func timesRoundTrip() throws {
        let back = try WireFormat.decoder().decode(Message.self, from: try WireFormat.encoder().encode(Self.message))
        #expect(back == Self.message)
    }

    /// Where `json` does not fit `schema`.
    static func problems(_ json: Any, _ schema: WireSchema, at path: String) -> [String] {
        switch schema {
        case .string, .enumeration:
            guard let text = json as? String else { return ["\(path): not a string"] }
            if case .enumeration(let values) = schema, !values.contains(text) { return ["\(path): \(text) not allowed"] }
            return []
        case .integer(let range):
            guard let number = json as? Int else { return ["\(path): not an integer"] }
            return range.contains(number) ? [] : ["\(path): \(number) out of range"]
        case .boolean:
            return json is Bool ? [] : ["\(path): not a boolean"]
        case .array(let element, let maxItems):
            guard let items = json as? [Any], items.count <= maxItems else { return ["\(path): not an array within \(maxItems)"] }
            return items.enumerated().flatMap { problems($0.element, element, at: "\(path)[\($0.offset)]") }
        case .map(let value):
            guard let object = json as? [String: Any] else { return ["\(path): not an object"] }
            return object.flatMap { problems($0.value, value, at: "\(path).\($0.key)") }
        case .nullable(let inner):
            return json is NSNull ? [] : problems(json, inner, at: path)
        case .object(let properties, let required):
            guard let object = json as? [String: Any] else { return ["\(path): not an object"] }
            let known = Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0.schema) })
            let missing = required.filter { object[$0] == nil }.map { "\(path).\($0): missing" }
            let unknown = object.keys.filter { known[$0] == nil }.map { "\(path).\($0): not in the schema" }
            return missing + unknown + object.flatMap { key, value in known[key].map { problems(value, $0, at: "\(path).\(key)") } ?? [] }
        }
    }
}
