import Kernel

/// Mock users that answer in the memory backend, so that live updates can be seen while working
/// on a feature alone.
public struct SimulatedPeer: Sendable {
    /// Users who answer; when one of them is in a conversation, it replies to others' messages.
    public let userIDs: Set<UserID>
    /// How long a peer "types" before its reply arrives.
    public let delay: Duration
    /// Replies, used in turn.
    public let replies: [String]

    /// Creates a peer configuration.
    public init(userIDs: Set<UserID>, delay: Duration, replies: [String]) {
        self.userIDs = userIDs
        self.delay = delay
        self.replies = replies.isEmpty ? ["👍"] : replies
    }

    /// Nobody answers.
    public static let none = SimulatedPeer(userIDs: [], delay: .zero, replies: [])
}
