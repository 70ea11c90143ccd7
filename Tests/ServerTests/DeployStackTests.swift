import Chat
import ConversationList
import Foundation
import Kernel
import ServiceGraph
import Synchronization
import Testing
import TestSupport

/// `Tools/Deploy/stack`, as an operator trying the scaled-out server would run it: PostgreSQL,
/// two instances and HAProxy at one address; and what killing an instance, or PostgreSQL,
/// under load does to the clients behind that address.
@Suite("Deployment stack", .timeLimit(.minutes(4)), .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["MESSAGEAI_STACK_TESTS"] == "1",
                "runs PostgreSQL, two servers and HAProxy under load: set MESSAGEAI_STACK_TESTS=1 (CI does, after the suite)"))
struct DeployStackTests {

    /// A stack in a scratch folder, on ports of its own, running the server the tests were built with.
    struct Stack {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-stack-\(UUID().uuidString)")
        let port = TestPorts.reserve(consecutive: 3)
        static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Tools/Deploy/stack").standardized.path

        /// The proxy's URL.
        var url: String { "http://127.0.0.1:\(port)" }

        /// The instances' settings, as an operator gives them: the environment. The load is
        /// many people's, so the per-person budgets are lifted, and password hashes are cheap.
        static let settings = [
            "MESSAGEAI_SERVER_AUTH_BCRYPT_COST": "4", "MESSAGEAI_SERVER_BUDGET_MESSAGES_PER_MINUTE": "100000000",
            "MESSAGEAI_SERVER_BUDGET_CONVERSATIONS_PER_HOUR": "100000000", "MESSAGEAI_SERVER_AUTH_SIGN_UP_BURST": "1000",
        ]

        /// Runs `stack COMMAND` on this stack.
        @discardableResult
        func run(_ command: String) async throws -> SpawnedProgram.Run {
            let argv = [Self.script, command, "--folder", folder.path, "--port", String(port), "--server", ServerProcess.executable.path]
            return try await OwnThread.run { try SpawnedProgram.run(argv, environment: Self.settings) }
        }

        /// The process id in `file` of the folder (`instance-1.pid`, `postgres/data/postmaster.pid`).
        func pid(_ file: String) throws -> Int32 {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            guard let pid = text.split(separator: "\n").first.flatMap({ Int32($0.trimmingCharacters(in: .whitespaces)) }) else {
                throw SpawnedProgramError(description: "no process id in \(file)")
            }
            return pid
        }

        func remove() {
            _ = try? SpawnedProgram.run([Self.script, "stop", "--folder", folder.path])
            try? FileManager.default.removeItem(at: folder)
        }
    }

    struct SpawnedProgramError: Error, CustomStringConvertible {
        let description: String
    }

    @Test("stack start serves through HAProxy and each instance serves what went through it; one instance killed, the proxy serves from the other within 3 s; stack stop ends everything")
    func stackServesThroughTheProxy() async throws {
        let stack = Stack()
        defer { stack.remove() }
        let started = try await stack.run("start")
        try #require(started.status == 0, "stack start failed: \(started.output)")
        #expect(started.output.contains("serving at \(stack.url) (2 instances"))

        let proxy = HTTPProbe(base: stack.url)
        #expect(try await proxy.send("GET", "/v1/health").status == 200)
        let ada = try await proxy.signUp("Ada"), grace = try await proxy.signUp("Grace")
        let conversation = try await proxy.startDirect(ada.token, with: grace.id)
        let sent = try await proxy.send("PUT", "/v1/conversations/\(conversation)/messages/m-1", token: ada.token, json: ["text": "hi"])
        #expect(sent.status == 200, "\(sent.status)")
        // Each instance serves what was stored through the proxy.
        for instance in [stack.port + 1, stack.port + 2] {
            let history = try await HTTPProbe(base: "http://127.0.0.1:\(instance)").send("GET", "/v1/conversations/\(conversation)/messages",
                                                                                        token: ada.token)
            #expect(history.status == 200 && String(decoding: history.body, as: UTF8.self).contains("\"hi\""), "instance :\(instance)")
        }

        kill(try stack.pid("instance-1.pid"), SIGKILL)
        let killed = ContinuousClock.now
        var statuses: [Int] = []
        while statuses.last != 200, ContinuousClock.now - killed < .seconds(10) {
            statuses.append((try? await proxy.send("GET", "/v1/profiles/me", token: ada.token).status) ?? 0)
        }
        let back = ContinuousClock.now - killed
        #expect(statuses.last == 200 && back < .seconds(3), "served again \(back) after the kill: \(statuses)")
        for _ in 0..<10 { #expect(try await proxy.send("GET", "/v1/profiles/me", token: ada.token).status == 200, "once back, every request is served") }

        #expect(try await stack.run("stop").status == 0)
        let status = try await stack.run("status")
        #expect(status.status == 1 && status.output.contains("proxy: not running") && status.output.contains("postgres: not running"), "\(status.output)")
    }

    @Test("kill -9 of one instance, four times alternating, under load through the proxy: nothing acknowledged lost or repeated, order kept, clients served again within 3 s")
    func instanceKills() async throws {
        let stack = Stack()
        defer { stack.remove() }
        try #require(try await stack.run("start").status == 0)
        let outcome = try await Self.drill(through: stack, pairs: 4, perPair: 250, kills: 4) { number in
            // One instance at a time: the other serves (the previous kill's restart is done) before this one dies.
            let (victim, other) = (number % 2 + 1, 2 - number % 2)
            let survivor = HTTPProbe(base: "http://127.0.0.1:\(stack.port + other)")
            for _ in 0..<200 where (try? await survivor.send("GET", "/v1/health").status) != 200 { try await Task.sleep(for: .milliseconds(50)) }
            kill(try stack.pid("instance-\(victim).pid"), SIGKILL)
            let restarted = try await stack.run("start")
            guard restarted.status == 0 else { throw SpawnedProgramError(description: "the instance did not start again: \(restarted.output)") }
        }
        #expect(outcome.verdict.isPerfect, "\(outcome.verdict)")
        #expect(outcome.kills == 4)
        #expect(outcome.longestWait < .seconds(3), "the clients went \(outcome.longestWait) without an acknowledged send")
    }

    @Test("kill -9 of PostgreSQL's postmaster under load, then its restart: nothing acknowledged lost or repeated; the instances recover without a restart")
    func postmasterKill() async throws {
        let stack = Stack()
        defer { stack.remove() }
        try #require(try await stack.run("start").status == 0)
        let instances = try [stack.pid("instance-1.pid"), stack.pid("instance-2.pid")]
        let outcome = try await Self.drill(through: stack, pairs: 4, perPair: 150, kills: 1) { _ in
            kill(try stack.pid("postgres/data/postmaster.pid"), SIGKILL)
            // Its backends end as they notice; a new postmaster starts once they have let go of
            // the shared memory.
            for attempt in 1...100 {
                let restarted = try await stack.run("start")
                if restarted.status == 0 { return }
                if attempt == 100 { throw SpawnedProgramError(description: "PostgreSQL did not start again: \(restarted.output)") }
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        #expect(outcome.verdict.isPerfect, "\(outcome.verdict)")
        #expect(try [stack.pid("instance-1.pid"), stack.pid("instance-2.pid")] == instances, "an instance was restarted")
        for instance in instances { #expect(kill(instance, 0) == 0, "instance \(instance) is gone") }
    }

    /// When each send was acknowledged.
    final class Acknowledgements: Sendable {
        private let instants = Mutex<[ContinuousClock.Instant]>([])

        func note() { instants.withLock { $0.append(.now) } }

        var times: [ContinuousClock.Instant] { instants.withLock { $0 } }
    }

    /// What a drill did to its clients.
    struct Outcome {
        let verdict: DeliveryLedger.Verdict
        let kills: Int
        /// The longest time between two acknowledged sends of all the senders.
        let longestWait: Duration
    }

    /// `pairs` senders and live readers, clients of the proxy, each sender sending `perPair`
    /// messages one after another; `crash` runs `kills` times, evenly spread over the sends.
    private static func drill(through stack: Stack, pairs count: Int, perPair: Int, kills: Int,
                              crash: @escaping @Sendable (Int) async throws -> Void) async throws -> Outcome {
        let graph = try ServiceGraph(GraphOptions(backend: .remote, sqlitePath: "", remoteURL: stack.url))
        var pairs: [(sender: ServiceSet, receiver: ServiceSet, conversation: ConversationID)] = []
        for index in 0..<count {
            let sender = try await graph.accounts.signUp(email: "s\(index)@example.com", displayName: "S\(index)", password: "password-s")
            let receiver = try await graph.accounts.signUp(email: "r\(index)@example.com", displayName: "R\(index)", password: "password-r")
            let asSender = graph.services(for: graph.caller(token: sender.token))
            let conversation = try await asSender.conversations.startDirect(with: receiver.account.id)
            let asReceiver = graph.services(for: graph.caller(token: receiver.token))
            _ = try await asReceiver.conversations.accept(conversation.id)
            pairs.append((asSender, asReceiver, conversation.id))
        }
        let ledger = DeliveryLedger()
        var readers: [Task<Void, Never>] = []
        for pair in pairs {
            let events = try await pair.receiver.chat.liveEvents()
            readers.append(Task { for await case .message(let message) in events { ledger.received(message.id, in: message.conversationID) } })
        }
        defer { readers.forEach { $0.cancel() } }

        let total = count * perPair
        let acknowledgedAt = Acknowledgements()
        let drill = KillDrill(killingAt: (1...kills).map { total * $0 / (kills + 1) }, crash: crash)
        _ = try await withThrowingTaskGroup(of: Int.self) { group in
            for pair in pairs {
                group.addTask {
                    try await drill.send(perPair, in: pair.conversation, noting: ledger) { id, index in
                        _ = try await pair.sender.chat.send(id: id, text: "m\(index)", to: pair.conversation)
                        acknowledgedAt.note()
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        let crashes = try await drill.finish()
        await ledger.waitForArrivals(total, timeout: .seconds(60))
        for pair in pairs {
            let stored = try await pair.receiver.chat.latestMessages(in: pair.conversation, limit: 500).messages
            #expect(stored.map(\.text) == (0..<perPair).map { "m\($0)" }, "the store's order")
        }
        let times = acknowledgedAt.times.sorted()
        let longest = zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? .zero
        return Outcome(verdict: ledger.verdict, kills: crashes, longestWait: longest)
    }
}
