import Foundation
import Kernel
import ServiceGraph
import TestSupport

/// The scaled-out server as `Tools/Deploy/stack` runs it, with the `messageai-server` built beside
/// this benchmark: a PostgreSQL cluster in a scratch folder (fsync on, as an operator runs it),
/// two instances and HAProxy in front of them. Clients either all go through the proxy, or
/// each sender goes straight to one instance and its receiver to the other, so that every
/// message crosses between instances.
struct ClusterFixture: LoadTarget {
    let stack: DeployStack
    /// Whether every client goes through the proxy (else: senders and receivers on different instances).
    let throughProxy: Bool
    let graph: ServiceGraph

    var url: String { stack.url }

    func senderURL(_ index: Int) -> String { throughProxy ? url : stack.instance(index % 2 + 1) }

    func receiverURL(_ index: Int) -> String { throughProxy ? url : stack.instance((index + 1) % 2 + 1) }

    /// Starts the stack, with the product's per-person budgets if `budgets` (what the attack
    /// modes measure), else with them lifted.
    /// - Throws: when it does not start (its output says why).
    init(throughProxy: Bool, budgets: Bool = false) async throws {
        self.throughProxy = throughProxy
        stack = DeployStack(liftingBudgets: !budgets)
        let started = try await stack.run("start")
        guard started.status == 0 else { throw AppError(.unavailable, "the stack did not start: \(started.output)") }
        graph = try ServiceGraph(GraphOptions(backend: .remote, sqlitePath: "", remoteURL: stack.url))
    }

    func serverPIDs() throws -> [Int32] { try (1...2).map { try stack.pid("instance-\($0).pid") } }

    func stop() { stack.remove() }
}
