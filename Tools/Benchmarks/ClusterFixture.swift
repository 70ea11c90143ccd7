import Foundation
import Kernel
import ServiceGraph
import TestSupport

/// The server on PostgreSQL as `Tools/Deploy/stack` runs it, with the `messageai-server` built
/// beside this benchmark: a PostgreSQL cluster in a scratch folder (fsync on, as an operator runs
/// it) and HAProxy. `proxy`: two instances, every client through the proxy; `crossed`: two
/// instances, each sender straight to one and its receiver to the other, so that every message
/// crosses between instances; `postgres`: one instance, every client straight to it.
struct ClusterFixture: LoadTarget {
    let stack: DeployStack
    let deployment: ServerBench.Deployment
    let graph: ServiceGraph

    var url: String { deployment == .postgres ? stack.instance(1) : stack.url }

    func senderURL(_ index: Int) -> String { deployment == .crossed ? stack.instance(index % 2 + 1) : url }

    func receiverURL(_ index: Int) -> String { deployment == .crossed ? stack.instance((index + 1) % 2 + 1) : url }

    /// Starts the stack for `deployment`, with the product's per-person budgets if `budgets`
    /// (what the attack modes measure), else with them lifted.
    /// - Throws: when it does not start (its output says why).
    init(_ deployment: ServerBench.Deployment, budgets: Bool = false) async throws {
        self.deployment = deployment
        stack = DeployStack(liftingBudgets: !budgets, instances: deployment == .postgres ? 1 : 2)
        let started = try await stack.run("start")
        guard started.status == 0 else { throw AppError(.unavailable, "the stack did not start: \(started.output)") }
        graph = try ServiceGraph(GraphOptions(backend: .remote, sqlitePath: "", remoteURL: deployment == .postgres ? stack.instance(1) : stack.url))
    }

    func serverPIDs() throws -> [Int32] { try (1...stack.instances).map { try stack.pid("instance-\($0).pid") } }

    func stop() { stack.remove() }
}
