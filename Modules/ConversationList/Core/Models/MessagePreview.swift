import Foundation
import Kernel

/// The newest message of a conversation, as the list shows it.
public struct MessagePreview: Codable, Equatable, Sendable {
    /// The message.
    public let id: MessageID
    /// Who sent it.
    public let senderID: UserID
    /// Its text (the view shortens it).
    public let text: String
    /// When it was sent.
    public let sentAt: Date

    /// Creates a preview.
    public init(id: MessageID, senderID: UserID, text: String, sentAt: Date) {
        self.id = id
        self.senderID = senderID
        self.text = text
        self.sentAt = sentAt
    }
}
