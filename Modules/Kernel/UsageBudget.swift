/// What one person may do how often where many people share one service (a server), so that
/// no one can take it from the others: each budgeted action spends from its doer's own budget,
/// and past it the action is refused with the seconds to wait (`RetryLater`, rate-limited).
/// Where one person's processes share a file (the local backends) there is none: `.unlimited`.
public struct UsageBudget: Sendable {
    /// What is budgeted, and in what unit a cost is counted.
    public enum Action: String, Sendable, CaseIterable {
        /// Messages sent, one each.
        case message
        /// Bytes sent times the people they go to, what a message's fan-out costs: a send's text
        /// (and a reply's quote), a change's whole event (`ChatRules.fanOutCost`).
        case fanOutBytes
        /// Conversations started (a group, one unit per `ConversationRules`' share of the people it
        /// names; a one-to-one that did not exist, one) and conversations left, one each: each is
        /// an event for every member, and leaving a one-to-one is how it is joined again.
        case conversation
        /// Changes of display name, one each: each is an event for every contact.
        case rename
        /// Look-ups and searches of people, the settings others see the effect of (blocks, unblocks,
        /// receipt privacy), one each; searches of messages by the candidates they check, and reads
        /// of history and events by the bytes they return (`ChatRules.readCost`).
        case lookup
        /// Bytes of files uploaded, counted as they arrive: a file is written to the store and
        /// stays there, so its bytes are what its sender takes from the others.
        case uploadBytes
    }

    private let charge: @Sendable (Action, UserID, Int) throws -> Void

    /// A budget that `charge` keeps: it throws `RetryLater` when `user` may not spend `cost` of
    /// `action` now.
    public init(charge: @escaping @Sendable (_ action: Action, _ user: UserID, _ cost: Int) throws -> Void) {
        self.charge = charge
    }

    /// Spends `cost` of `action` from `user`'s budget.
    /// - Throws: `RetryLater` when it is spent.
    public func spend(_ action: Action, by user: UserID, cost: Int = 1) throws { try charge(action, user, cost) }

    /// No limits.
    public static let unlimited = UsageBudget { _, _, _ in }
}
