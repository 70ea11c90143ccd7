import Kernel
import Synchronization

/// What was sent and what arrived, per conversation and in order, to judge a delivery run: how
/// many messages were lost, how many came more than once, in how many conversations the order
/// differed from the order the sends were acknowledged in.
public final class DeliveryLedger: Sendable {
    /// The judgement of a run.
    public struct Verdict: Sendable, Equatable, CustomStringConvertible {
        public var sent = 0, delivered = 0, lost = 0, duplicated = 0, reordered = 0

        /// A verdict with the given counts.
        public init(sent: Int = 0, delivered: Int = 0, lost: Int = 0, duplicated: Int = 0, reordered: Int = 0) {
            (self.sent, self.delivered, self.lost, self.duplicated, self.reordered) = (sent, delivered, lost, duplicated, reordered)
        }

        /// Whether all `sent` arrived once each, in order.
        public var isPerfect: Bool { delivered == sent && lost == 0 && duplicated == 0 && reordered == 0 }
        public var description: String { "\(sent) sent, \(delivered) delivered, \(lost) lost, \(duplicated) duplicated, \(reordered) out of order" }
    }

    private struct State {
        var sent: [ConversationID: [MessageID]] = [:]
        var received: [ConversationID: [MessageID]] = [:]
        var receivedCount = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// A send of `id` was acknowledged (call in the order of acknowledgement).
    public func acknowledged(_ id: MessageID, in conversation: ConversationID) {
        state.withLock { $0.sent[conversation, default: []].append(id) }
    }

    /// `id` arrived at a receiver of `conversation`.
    public func received(_ id: MessageID, in conversation: ConversationID) {
        let ready = state.withLock { state in
            state.received[conversation, default: []].append(id)
            state.receivedCount += 1
            let count = state.receivedCount
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return ready
        }
        ready.forEach { $0.resume() }
    }

    /// Returns once `count` arrivals have been noted, or when `timeout` has passed.
    public func waitForArrivals(_ count: Int, timeout: Duration) async {
        await withTaskGroup { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let now = self.state.withLock { state in
                        if state.receivedCount >= count { return true }
                        state.waiters.append((count, continuation))
                        return false
                    }
                    if now { continuation.resume() }
                }
            }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
            // Whichever finished first, release the waiter so the group can end.
            let left = self.state.withLock { state in
                defer { state.waiters.removeAll { $0.count == count } }
                return state.waiters.filter { $0.count == count }.map(\.continuation)
            }
            left.forEach { $0.resume() }
        }
    }

    /// The judgement so far.
    public var verdict: Verdict {
        state.withLock { state in
            var verdict = Verdict()
            for (conversation, sent) in state.sent {
                let received = state.received[conversation] ?? []
                let unique = Set(received)
                verdict.sent += sent.count
                verdict.delivered += unique.count
                verdict.lost += Set(sent).subtracting(unique).count
                verdict.duplicated += received.count - unique.count
                if received.filter(Set(sent).contains) != sent { verdict.reordered += 1 }
            }
            return verdict
        }
    }
}
