import Foundation
import Kernel

/// Where each member's `NotificationChoice`s are kept: it reads and writes, and decides nothing
/// (`StoredConversationListService` checks who may choose what). Implementations:
/// `InMemoryNotificationChoiceStore`, `SQLNotificationChoiceStore`, `PostgresNotificationChoiceStore`.
public protocol NotificationChoiceStore: Sendable {
    /// What `member` chose, by conversation.
    func choices(of member: UserID) async throws -> [ConversationID: NotificationChoice]
    /// Keeps `choice` of `member` in `conversationID` (`nil`: back to the standard level), and
    /// records `StoreChange.notificationsChosen` for the member's other devices in the same write.
    func choose(_ choice: NotificationChoice?, in conversationID: ConversationID, for member: UserID) async throws
}
