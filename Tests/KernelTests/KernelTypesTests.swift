import Foundation
import Kernel
import Synchronization
import TestSupport
import Testing

@Suite("Kernel types", .timeLimit(.minutes(1)))
struct KernelTypesTests {
    @Test("random identifiers are 15 characters of 0-9a-v and distinct")
    func identifiers() {
        let ids = (0..<100).map { _ in MessageID.random() }
        #expect(Set(ids).count == 100)
        #expect(ids.allSatisfy { $0.rawValue.utf8.count == 15 && $0.rawValue.allSatisfy { "0123456789abcdefghijklmnopqrstuv".contains($0) } })
    }

    @Test("bytes as hexadecimal: two lowercase digits a byte, leading zeros kept")
    func hex() {
        #expect(Hex.string([0x00, 0x0F, 0xA5, 0xFF]) == "000fa5ff")
        #expect(Hex.string([UInt8]()).isEmpty)
        #expect(Hex.string("c-1".utf8) == "632d31")
    }

    @Test("identifiers encode as plain strings")
    func identifierCoding() throws {
        let data = try JSONEncoder().encode([UserID("u-1")])
        #expect(String(decoding: data, as: UTF8.self) == #"["u-1"]"#)
        #expect(try JSONDecoder().decode([UserID].self, from: data) == [UserID("u-1")])
    }

    @Test("a path parameter is percent-encoded exactly as Foundation does it, for any text")
    func pathParameters() {
        let endpoint = Endpoint<NoContent, NoContent, PathParameters.ConversationMessage>(.get, "/v1/things/{conversation}/parts/{message}", "test")
        #expect(
            endpoint.path(.init(conversation: ConversationID("a1-._~"), message: MessageID("x y/?é"))) == "/v1/things/a1-._~/parts/x%20y%2F%3F%C3%A9")
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        var random = RandomText(seed: 11)
        for _ in 0..<500 {
            let text = random.string(maxScalars: 12)
            let expected = "/v1/things/\(text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")/parts/m1"
            #expect(endpoint.path(.init(conversation: ConversationID(text), message: MessageID("m1"))) == expected, "for \(text.debugDescription)")
        }
    }

    @Test("a cursor reads back what it writes and refuses anything else")
    func cursors() throws {
        let cursor = EventCursor(epoch: "k3v9Q2a1", position: 1_042)
        #expect(cursor.description == "k3v9Q2a1.1042")
        #expect(try EventCursor(parsing: cursor.description) == cursor)
        #expect(try EventCursor(parsing: "a.0") == EventCursor(epoch: "a", position: 0))
        #expect(try EventCursor(parsing: "\(String(repeating: "z", count: 16)).\(Int64.max)").position == Int64.max)
        let refused = [
            "", ".", ".1", "a.", "a", "a.b", "a.-1", "a.+1", "a.1.2", "a b.1", "é.1", "a.١", "a.1 ", " a.1",
            "\(String(repeating: "z", count: 17)).1", "a.9223372036854775808", "a.00000000000000000001",
        ]
        for text in refused {
            #expect(throws: AppError.self, "\(text.debugDescription) was read") { try EventCursor(parsing: text) }
        }
    }

    @Test(
        "a key's environment variable splits camel case as swift-configuration does, and a near miss is named",
        arguments: [
            ("auth.bcryptCost", "MESSAGEAI_AUTH_BCRYPT_COST"), ("sqlite.path", "MESSAGEAI_SQLITE_PATH"), ("backend", "MESSAGEAI_BACKEND"),
            ("remote.timeoutSeconds", "MESSAGEAI_REMOTE_TIMEOUT_SECONDS"), ("events.pingSeconds", "MESSAGEAI_EVENTS_PING_SECONDS"),
            ("tls.cert", "MESSAGEAI_TLS_CERT"), ("a-b.cD2e", "MESSAGEAI_A_B_C_D2E"),
        ])
    func environmentVariables(key: String, variable: String) {
        #expect(EnvironmentVariable.name(of: key, prefix: "MESSAGEAI_") == variable)
        let typo = variable.replacingOccurrences(of: "_", with: "").replacingOccurrences(of: "MESSAGEAI", with: "MESSAGEAI_")
        let environment = [variable: "2", "MESSAGEAI_SERVER_PORT": "3", "PATH": "/bin"].merging([typo: "1"]) { $1 }
        let unknown = EnvironmentVariable.unknown(in: environment, prefix: "MESSAGEAI_", known: [variable], otherPrefixes: ["MESSAGEAI_SERVER_"])
        #expect(unknown == (typo == variable ? [] : [EnvironmentVariable.Unknown(name: typo, suggestion: variable)]))
        #expect(unknown.first.map { $0.warning.contains(typo) && $0.warning.contains("did you mean \(variable)?") } ?? true)
    }

    @Test("a broadcaster delivers to every subscriber and forgets finished ones")
    func broadcaster() async {
        let broadcaster = Broadcaster<Int>()
        let first = broadcaster.subscribe()
        var second: AsyncStream<Int>? = broadcaster.subscribe()
        broadcaster.send(1)
        broadcaster.send(2)
        var iterator = first.makeAsyncIterator()
        #expect(await iterator.next() == 1)
        #expect(await iterator.next() == 2)
        var secondIterator = second!.makeAsyncIterator()
        #expect(await secondIterator.next() == 1)
        #expect(broadcaster.subscriberCount == 2)
        second = nil
        secondIterator = AsyncStream<Int>.makeStream().stream.makeAsyncIterator()
        #expect(broadcaster.subscriberCount == 1)
    }

    @Test("Loadable.from maps success, AppError, foreign errors and cancellation")
    func loadable() async {
        #expect(await Loadable.from { 42 } == .loaded(42))
        #expect(await Loadable<Int>.from { throw AppError(.notFound, "gone") } == .failed(AppError(.notFound, "gone")))
        #expect(await Loadable<Int>.from { throw CocoaError(.fileNoSuchFile) }.error?.kind == .internal)
        #expect(await Loadable<Int>.from { throw CancellationError() } == .idle)
    }

    @Test("simulated conditions fail every call at rate 1 and none at rate 0")
    func simulatedConditions() async throws {
        await #expect(throws: AppError.self) { try await SimulatedConditions(latency: .zero, failureRate: 1).apply() }
        try await SimulatedConditions(latency: .zero, failureRate: 0).apply()
    }

    @Test("a caller answers its id while its check passes and refuses when it fails")
    func caller() async throws {
        #expect(try await Caller.verified(UserID("u")).id() == UserID("u"))
        await #expect(throws: AppError.notSignedIn) { try await Caller.signedOut.id() }
    }

    @Test("a guarded stream ends at the first value after the caller's session ended")
    func guardedStream() async throws {
        let valid = Mutex(true)
        let caller = Caller {
            guard valid.withLock({ $0 }) else { throw AppError.notSignedIn }
            return UserID("u")
        }
        let (source, feed) = AsyncStream<Int>.makeStream()
        var received = caller.guarding(source).makeAsyncIterator()
        feed.yield(1)
        #expect(await received.next() == 1)
        valid.withLock { $0 = false }
        feed.yield(2)
        #expect(await received.next() == nil)
    }

    @Test("a mapped stream is pulled: the source's buffer limit holds, and a reader cancelled ends the source")
    func mappedStreamIsPulled() async {
        let (ended, end) = AsyncStream<Void>.makeStream()
        let (source, feed) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingOldest(2))
        feed.onTermination = { _ in end.yield() }
        let doubled = source.mapped { $0 * 2 }
        // Nothing drains the source ahead of the reader, so its limit of 2 drops the third.
        #expect([feed.yield(1), feed.yield(2), feed.yield(3)].map { if case .dropped = $0 { true } else { false } } == [false, false, true])
        let (firsts, first) = AsyncStream<Int>.makeStream()
        let reader = Task { for await value in doubled { first.yield(value) } }
        var got = firsts.makeAsyncIterator()
        #expect(await got.next() == 2)
        #expect(await got.next() == 4)
        reader.cancel()
        var endings = ended.makeAsyncIterator()
        #expect(await endings.next() != nil, "the source was told its reader stopped")
    }

    /// The README's words for each failure class, in its exit-code table.
    static let readmeWords: [AppError.Kind: String] = [
        .usage: "usage", .invalidInput: "invalid input", .tooLarge: "invalid input", .notFound: "not found", .conflict: "conflict",
        .unavailable: "backend unavailable", .internal: "internal error", .rateLimited: "rate-limited", .forbidden: "forbidden",
        .notSignedIn: "not signed in", .invalidCredentials: "wrong email or password", .gone: "gone",
    ]

    @Test("each failure class exits with the code the README's table gives it, and the table lists no other class")
    func exitCodesAsDocumented() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let table = try #require(text.components(separatedBy: "### Exit codes").dropFirst().first?.components(separatedBy: "\n\n").dropFirst().first)
        let rows = Dictionary(
            table.split(separator: "\n").compactMap { row -> (Int32, String)? in
                let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                guard cells.count >= 2, let code = Int32(cells[0]) else { return nil }
                return (code, cells[1])
            }, uniquingKeysWith: { first, _ in first })
        for kind in AppError.Kind.allCases {
            let words = try #require(Self.readmeWords[kind], "no README words for \(kind)")
            #expect(
                rows[kind.exitCode]?.hasPrefix(words) == true,
                "\(kind) exits \(kind.exitCode), which the README calls \(rows[kind.exitCode] ?? "nothing")")
        }
        let classes = Set(AppError.Kind.allCases.map(\.exitCode)), others: Set<Int32> = [0, 74]
        #expect(Set(rows.keys).subtracting(classes).subtracting(others).isEmpty, "the README lists codes no class has: \(rows.keys.sorted())")
    }

    @Test("reconnect waits: random, at most 0.5 s after one failure, doubling, never over 20 s")
    func backoffBounds() {
        for failures in 1...12 {
            let ceiling = min(20.0, 0.5 * Double(1 << (failures - 1)))
            let waits = (0..<200).map { _ in Backoff.delay(afterFailures: failures) }
            #expect(waits.allSatisfy { $0 >= .zero && $0 <= .seconds(ceiling) }, "after \(failures) failures")
            #expect(Set(waits).count > 100, "after \(failures) failures the waits are not random")
        }
        #expect(Backoff.delay(afterFailures: 0) <= .seconds(0.5))
    }
}
