import Foundation
import Kernel

/// A message that tells its reader it arrived (`NotificationRules`), as the front ends deliver it:
/// on the terminal (`Notifier`), to `notify.command` and from `messageai notify`, as one JSON
/// object of version `version`.
public struct Notice: Codable, Equatable, Sendable {
    /// The JSON's version: a field's meaning never changes within one.
    public static let version = 1

    public let v: Int
    /// `direct`, `mention` or `message` (`NotificationRules.Reason`).
    public let reason: String
    public let conversationID: ConversationID
    /// The conversation's title as the reader sees it.
    public let conversation: String
    public let messageID: MessageID
    public let senderID: UserID
    /// The sender's display name.
    public let sender: String
    public let text: String
    /// When it was sent, in milliseconds since 1970.
    public let sentAt: Int64

    /// The notice of message `messageID`.
    public init(
        reason: String, conversationID: ConversationID, conversation: String, messageID: MessageID, senderID: UserID, sender: String, text: String,
        sentAt: Date
    ) {
        v = Self.version
        self.reason = reason
        self.conversationID = conversationID
        self.conversation = conversation
        self.messageID = messageID
        self.senderID = senderID
        self.sender = sender
        self.text = text
        self.sentAt = WireFormat.milliseconds(sentAt)
    }

    /// The notice as one line of JSON.
    public var json: String { (try? String(decoding: WireFormat.encoder().encode(self), as: UTF8.self)) ?? "{}" }
}
