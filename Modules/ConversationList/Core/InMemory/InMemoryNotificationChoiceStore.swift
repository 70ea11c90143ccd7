import Foundation
import Kernel

/// Members' notification choices in memory, each recorded in `journal` for their other devices.
public actor InMemoryNotificationChoiceStore: NotificationChoiceStore {
    private var stored: [UserID: [ConversationID: NotificationChoice]] = [:]
    private let journal: (any ChangeJournal)?

    /// An empty store recording its changes in `journal`, when given.
    public init(journal: (any ChangeJournal)? = nil) { self.journal = journal }

    public func choices(of member: UserID) async throws -> [ConversationID: NotificationChoice] { stored[member] ?? [:] }

    public func choose(_ choice: NotificationChoice?, in conversationID: ConversationID, for member: UserID) async throws {
        stored[member, default: [:]][conversationID] = choice
        await journal?.record(.notificationsChosen(in: conversationID, by: member), audience: [member])
    }
}
