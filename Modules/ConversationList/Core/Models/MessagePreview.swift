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
    /// Whether its author deleted it (its text is then empty).
    public let deleted: Bool

    /// Creates a preview.
    public init(id: MessageID, senderID: UserID, text: String, sentAt: Date, deleted: Bool = false) {
        self.id = id
        self.senderID = senderID
        self.text = text
        self.sentAt = sentAt
        self.deleted = deleted
    }

    private enum CodingKeys: String, CodingKey { case id, senderID, text, sentAt, deleted }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(MessageID.self, forKey: .id), senderID: try container.decode(UserID.self, forKey: .senderID),
            text: try container.decode(String.self, forKey: .text), sentAt: try container.decode(Date.self, forKey: .sentAt),
            deleted: try container.decodeIfPresent(Bool.self, forKey: .deleted) ?? false)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(senderID, forKey: .senderID)
        try container.encode(text, forKey: .text)
        try container.encode(sentAt, forKey: .sentAt)
        if deleted { try container.encode(deleted, forKey: .deleted) }
    }
}
