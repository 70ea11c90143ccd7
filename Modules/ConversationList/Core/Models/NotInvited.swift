import Kernel

/// Someone named in a new conversation who was not invited to it, and why: told to its starter
/// in the answer that starts it (`ConversationRules.entry`).
public struct NotInvited: Codable, Equatable, Sendable {
    /// Why an invitation was not made.
    public enum Reason: String, Codable, Sendable, CaseIterable {
        /// An invitation of the starter's to them waits already: they have not answered it.
        case alreadyInvited
        /// They have `ConversationRules.maxPendingInvitations` waiting, all from people they accept.
        case full
    }

    /// The person.
    public let userID: UserID
    /// Why.
    public let reason: Reason

    /// Creates the value.
    public init(userID: UserID, reason: Reason) {
        self.userID = userID
        self.reason = reason
    }
}
