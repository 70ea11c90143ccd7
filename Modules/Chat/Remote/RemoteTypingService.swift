import Chat
import ChatAPI
import Foundation
import Kernel
import RemoteClient

/// Typing through `messageai-server`: notices go over the events socket when this process has it
/// open (HTTP otherwise), and come over it.
public struct RemoteTypingService: TypingService {
    private let connection: RemoteConnection
    private let caller: Caller

    /// Creates the service for `caller` over `connection`.
    public init(connection: RemoteConnection, caller: Caller) {
        self.connection = connection
        self.caller = caller
    }

    /// Over the events socket when this process has it open, over HTTP otherwise.
    public func setTyping(_ typing: Bool, in conversationID: ConversationID) async throws {
        let id = MessageID.random().rawValue
        if let frame = await connection.request(ChatSocket.TypingFrame(id: id, conversation: conversationID, typing: typing), id: id, as: caller),
            let reply = try? WireFormat.decoder().decode(EventSocketProtocol.Answer.self, from: frame)
        {
            return try reply.check()
        }
        _ = try await connection.call(ChatAPI.typing, path: .init(conversation: conversationID), body: TypingRequest(typing: typing), as: caller)
    }

    public func typingNotices() async throws -> AsyncStream<TypingNotice> {
        try await connection.frames(EventSocketProtocol.Frame<TypingNotice>.self, types: [TypingNotice.type], as: caller).mapped(\.event)
    }
}
