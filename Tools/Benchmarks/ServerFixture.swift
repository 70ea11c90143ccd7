import ArgumentParser
import Chat
import ConversationList
import Foundation
import Kernel
import ServiceGraph
import Synchronization
import TestSupport

/// A server the benchmarks load: where its clients connect, and the remote service graph they
/// use; users signed up on it, each with the remote services a client process would have.
protocol LoadTarget: Sendable {
    /// Where clients connect: the server, or the proxy in front of several.
    var url: String { get }
    /// The remote services of a client process of `url`.
    var graph: ServiceGraph { get }
    /// Where the `index`-th sender's bare socket connects.
    func senderURL(_ index: Int) -> String
    /// Where the `index`-th receiver's bare socket connects.
    func receiverURL(_ index: Int) -> String
    /// The process ids of the server: one, or each instance's.
    func serverPIDs() throws -> [Int32]
}

/// A user of a `LoadTarget`, and a pair of them in a one-to-one.
enum LoadUsers {
    struct User: Sendable {
        let id: UserID
        let token: String
        let services: ServiceSet
        var chat: any ChatService { services.chat }
        var events: any EventStreamService { services.events }
        var conversations: any ConversationListService { services.conversations }
    }

    struct Pair: Sendable {
        let sender: User
        let receiver: User
        let conversation: ConversationID
    }
}

/// A `messageai-server` child over a scratch SQLite file.
struct ServerFixture: LoadTarget {
    typealias User = LoadUsers.User

    let folder: URL
    let server: ServerProcess
    let graph: ServiceGraph

    var url: String { server.url }

    /// Starts the `messageai-server` built beside this benchmark (as the tests do) and waits for
    /// its first log line (its URL); every user signs up from this one address, so the sign-up
    /// limit is lifted, and so are the per-person budgets (the load is many people's) unless
    /// `budgets` is true (what the abuse benchmarks measure, and servers before budgets run).
    init(budgets: Bool = false) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-server-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        server = try await ServerProcess(
            databasePath: folder.appendingPathComponent("server.sqlite").path, liftingBudgets: !budgets,
            arguments: ["--sign-up-burst", "100000"])
        graph = try ServiceGraph(GraphOptions(backend: .remote, sqlitePath: "", remoteURL: server.url))
    }

    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The server's resident memory and open file descriptors, from `/proc`.
    func serverFootprint() throws -> (bytes: Int, descriptors: Int) {
        let pid = server.processIdentifier
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
        return (Child.residentBytes(of: pid), descriptors)
    }

    func serverPIDs() -> [Int32] { [server.processIdentifier] }

    /// The server's processor time so far (user and system), in seconds.
    func serverCPUTime() -> Double { Child.cpuSeconds(of: server.processIdentifier) }

}

extension LoadTarget {
    typealias User = LoadUsers.User
    typealias Pair = LoadUsers.Pair

    func senderURL(_ index: Int) -> String { url }

    func receiverURL(_ index: Int) -> String { url }

    /// `count` new users, signed up a few at a time.
    func users(_ count: Int) async throws -> [User] {
        let graph = graph
        return try await ServerFixture.concurrently(count, width: 8) { index in
            let issued = try await graph.accounts.signUp(
                email: "u\(index)-\(UUID().uuidString.prefix(6))@example.com",
                displayName: "User \(index)", password: "password-\(index)")
            return User(id: issued.account.id, token: issued.token, services: graph.services(for: graph.caller(token: issued.token)))
        }
    }

    /// `work(0..<count)`, at most `width` at a time, results in index order.
    static func concurrently<T: Sendable>(_ count: Int, width: Int, _ work: @escaping @Sendable (Int) async throws -> T) async throws -> [T] {
        try await withThrowingTaskGroup(of: (Int, T).self) { group in
            var results = [T?](repeating: nil, count: count)
            for index in 0..<count {
                if index >= width, let (done, value) = try await group.next() { results[done] = value }
                group.addTask { (index, try await work(index)) }
            }
            for try await (done, value) in group { results[done] = value }
            return results.compactMap(\.self)
        }
    }

    /// `count` one-to-one conversations between new users, each started by its sender and
    /// accepted by its receiver (by starting it too, which servers from before invitations also
    /// answer).
    func pairs(_ count: Int) async throws -> [Pair] {
        let users = try await users(count * 2)
        var pairs: [Pair] = []
        for index in 0..<count {
            let sender = users[index * 2], receiver = users[index * 2 + 1]
            let conversation = try await sender.conversations.startDirect(with: receiver.id)
            _ = try await receiver.conversations.startDirect(with: sender.id)
            pairs.append(Pair(sender: sender, receiver: receiver, conversation: conversation.id))
        }
        return pairs
    }

    /// How each of `users` sends, as `kind` of client.
    func senders(_ users: [User], as kind: ClientKind) async throws -> [Sender] {
        switch kind {
        case .bare:
            var senders: [Sender] = []
            for (index, user) in users.enumerated() {
                let socket = try await LoadSocket.open(senderURL(index), token: user.token)
                senders.append(Sender { id, text, conversation in try await socket.send(id: id, text: text, to: conversation) })
            }
            return senders
        case .library, .http:
            if kind == .library { try await connect(users) }
            return users.map { user in Sender { id, text, conversation in _ = try await user.chat.send(id: id, text: text, to: conversation) } }
        }
    }

    /// Opens each user's events socket, as a REPL holds it, and reads and drops what comes:
    /// their sends then go over it rather than over HTTP.
    func connect(_ users: [User]) async throws {
        for user in users {
            let stream = try await user.events.liveMessages(in: nil)
            Task { for await _ in stream {} }
        }
    }

    /// Each user's live messages, as `kind` of client (the remote services unless `bare`), their
    /// arrivals noted in `arrivals` (subscribed before this returns).
    func listen(_ users: [User], as kind: ClientKind, arrivals: Arrivals) async throws {
        for (index, user) in users.enumerated() {
            if kind == .bare {
                _ = try await LoadSocket.open(receiverURL(index), token: user.token) { id, _ in arrivals.arrived(id) }
                continue
            }
            let stream = try await user.events.liveMessages(in: nil)
            Task { for await message in stream { arrivals.arrived(message.id) } }
        }
    }
}

/// How the benchmarks' clients talk to the server.
enum ClientKind: String, ExpressibleByArgument, CaseIterable {
    /// `LoadSocket`s: the least a client can do, so that the load generator leaves the shared
    /// machine to the server.
    case bare
    /// The remote services with their events socket open, as a REPL holds it: sends go over it.
    case library
    /// The remote services, senders with no socket: sends are HTTP `PUT`s, as a one-shot CLI's.
    case http
}

/// How one benchmark user sends a message, returning once the server has acknowledged it.
struct Sender: Sendable {
    let send: @Sendable (_ id: MessageID, _ text: String, _ to: ConversationID) async throws -> Void
}

/// When each message was sent and when each copy arrived, in milliseconds.
final class Arrivals: Sendable {
    private struct State {
        var sent: [MessageID: ContinuousClock.Instant] = [:]
        var latencies: [MessageID: [Double]] = [:]
        var total = 0
    }

    private let state = Mutex(State())

    func sent(_ id: MessageID) { state.withLock { $0.sent[id] = .now } }

    func arrived(_ id: MessageID) {
        let now = ContinuousClock.now
        state.withLock { state in
            guard let sent = state.sent[id] else { return }
            state.latencies[id, default: []].append((now - sent) / .milliseconds(1))
            state.total += 1
        }
    }

    /// Every latency, once `count` copies have arrived (or after 60 s, what there is).
    func latencies(expecting count: Int) async throws -> [Double] {
        let deadline = ContinuousClock.now + .seconds(60)
        while state.withLock({ $0.total }) < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        return state.withLock { $0.latencies.values.flatMap { $0 } }
    }

    /// The latency of the last of `count` copies of `id`.
    func lastArrival(of id: MessageID, count: Int) async throws -> Double {
        let deadline = ContinuousClock.now + .seconds(30)
        while (state.withLock { $0.latencies[id]?.count ?? 0 }) < count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .microseconds(200))
        }
        return state.withLock { $0.latencies[id]?.max() ?? .nan }
    }
}
