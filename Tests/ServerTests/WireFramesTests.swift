import Chat
import ChatAPI
import Foundation
import Kernel
import Testing

/// The frames written by hand (`ChatSocket.Frames`) are, byte for byte, what the encoder writes for the
/// same values: any text (quotes, backslashes, every control character, other scripts, emoji),
/// with and without the optional fields; and the kinds they leave to the encoder are left.
@Suite("Wire frames", .timeLimit(.minutes(1)))
struct WireFramesTests {
    static let awkward: [String] = [
        "hi", "", #"say "hi" \ back\slash/"#, "line\nbreak\r\ttab", String((0..<0x20).map { Character(Unicode.Scalar($0)) }),
        "\u{7f}\u{80}é 中文 😀 \u{2028}\u{2029}", String(repeating: "x", count: 4_000),
    ]

    static func message(_ text: String, number: Int) -> Message {
        Message(
            id: MessageID("m-\(number)"), conversationID: ConversationID("c.\(number)"), senderID: UserID("u_\(number)"), text: text,
            sentAt: Date(timeIntervalSince1970: Double(1_795_000_000_000 + number * 17) / 1_000),
            cursor: number % 3 == 0 ? nil : EventCursor(epoch: "ab12", position: Int64(number)))
    }

    static var messages: [Message] { awkward.enumerated().flatMap { index, text in (0..<4).map { message(text, number: index * 4 + $0) } } }

    @Test("a message's event frame is the encoder's text")
    func eventFrames() throws {
        for message in Self.messages {
            let event = UserEvent.message(message)
            let written = try #require(ChatSocket.Frames.text(of: event))
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: try WireFormat.encoder().encode(event), as: UTF8.self))
            #expect(try WireFormat.decoder().decode(UserEvent.self, from: Data(written)) == event)
        }
        #expect(ChatSocket.Frames.text(of: .change(.conversationAdded(ConversationID("c1")), cursor: EventCursor(epoch: "ab12", position: 1))) == nil)
    }

    @Test("a reaction's event frame is the encoder's text: emoji in the encoder's order, with and without the reader's own")
    func reactionFrames() throws {
        let emoji = ["👍", "🎉", "❤️", "a", "\"", "\\", "\u{7f}é", "😀", "中", "\u{2028}", "Z", "👍🏽"]
        for count in [0, 1, 2, emoji.count] {
            for own in [0, 1, count / 2, count] where own <= count {
                let reactions = MessageReactions(
                    conversationID: ConversationID("c.\(count)"), messageID: MessageID("m-\(own)"),
                    reactions: Dictionary(uniqueKeysWithValues: emoji.prefix(own).map { ($0, [UserID("u_\(own)")]) }),
                    reactionCounts: Dictionary(uniqueKeysWithValues: emoji.prefix(count).enumerated().map { ($1, $0 + 1) }))
                let event = UserEvent.reacted(reactions, cursor: EventCursor(epoch: "ab12", position: Int64(count * 100 + own)))
                let written = try #require(ChatSocket.Frames.text(of: event))
                #expect(String(decoding: written, as: UTF8.self) == String(decoding: try WireFormat.encoder().encode(event), as: UTF8.self))
                #expect(try WireFormat.decoder().decode(UserEvent.self, from: Data(written)) == event)
            }
        }
    }

    @Test("a stored send's reply frame is the encoder's text; a refusal is left to the encoder")
    func replyFrames() throws {
        for message in Self.messages {
            let reply = ChatSocket.SendReply(request: message.id.rawValue, .success(message))
            let written = try #require(ChatSocket.Frames.text(of: reply))
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: try WireFormat.encoder().encode(reply), as: UTF8.self))
        }
        #expect(ChatSocket.Frames.text(of: ChatSocket.SendReply(request: "m1", .failure(AppError(.forbidden, "not a member")))) == nil)
    }
}
