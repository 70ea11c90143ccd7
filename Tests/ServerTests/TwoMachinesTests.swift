import Foundation
import TestSupport
import Testing

/// People on different machines chat through a real server: each client is `messageai` with
/// its own state directory, over real sockets.
@Suite("Two machines, one server", .timeLimit(.minutes(2)))
struct TwoMachinesTests {
    @Test("sign up, start a chat, receive live, see unread, mark read; a third user is refused")
    func chatAcrossMachines() async throws {
        let world = try await ServerWorld()
        defer { world.remove() }
        let ada = world.machine("ada"), grace = world.machine("grace"), eve = world.machine("eve")
        _ = try await ada.signUp("Ada")
        _ = try await grace.signUp("Grace")
        _ = try await eve.signUp("Eve")
        try await ada.startChat(as: "Ada", with: grace, "Grace")

        let tail = try grace.start(["tail"])
        defer { tail.terminate() }
        let first = try await ada.sendUntilSeen("probe", to: "Grace", by: tail)
        #expect(first?.contains("Ada: probe") == true)
        for text in ["hello from Ada's machine", "second"] {
            #expect(try await ada.run(["send", "Grace", text]).status == 0)
        }
        var received: [String] = []
        while received.count < 2, let line = await tail.nextLine() {
            if !line.contains("probe") { received.append(line) }
        }
        #expect(received.map { $0.contains("Ada: hello from Ada's machine") || $0.contains("Ada: second") } == [true, true])

        let rows = try await grace.run(["chats", "--json"])
        let row = try #require(
            rows.stdout.split(separator: "\n").first.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect((row["unreadCount"] as? Int ?? 0) >= 3 && row["title"] as? String == "Ada")
        #expect(try await grace.run(["read", "Ada"]).status == 0)
        let after = try await grace.run(["chats", "--json"]).stdout
        #expect(after.contains("\"unreadCount\":0"))

        // Eve cannot name the conversation from her machine (it is not in her list), and the
        // server refuses her token on it.
        let conversation = try #require(row["id"] as? String)
        let unseen = try await eve.run(["history", conversation])
        #expect(unseen.status == 66 && unseen.stderr.split(separator: "\n").count == 1, "eve's history: \(unseen.stderr)")
        let probe = world.probe
        let signIn = try await probe.send("POST", "/v1/auth/signin", json: ["email": "eve@example.com", "password": "password-Eve"])
        let eveToken = try #require(signIn.json?["token"] as? String)
        for (method, path, body) in [
            ("GET", "/v1/conversations/\(conversation)/messages", nil),
            ("PUT", "/v1/conversations/\(conversation)/messages/evemessage1", Data(#"{"text":"let me in"}"#.utf8)),
            ("POST", "/v1/conversations/\(conversation)/read", nil),
        ] {
            let answer = try await probe.send(method, path, token: eveToken, body: body)
            #expect(answer.status == 403 && answer.errorKind == "forbidden", "\(method) \(path): \(answer.status)")
        }
        #expect(try await grace.run(["history", "Ada"]).stdout.contains("let me in") == false)
    }

    @Test("tail --since over the server: the messages after the cursor, then live ones, each once")
    func tailSinceOverTheServer() async throws {
        let world = try await ServerWorld()
        defer { world.remove() }
        let ada = world.machine("ada"), grace = world.machine("grace")
        _ = try await ada.signUp("Ada")
        _ = try await grace.signUp("Grace")
        try await ada.startChat(as: "Ada", with: grace, "Grace")
        var cursors: [String] = []
        for index in 0..<5 {
            let sent = try await ada.run(["send", "Grace", "backlog \(index)", "--json"])
            cursors.append(try #require(sent.stdout.firstMatch(of: /"cursor":"([^"]+)"/).map { String($0.output.1) }))
        }
        let tail = try grace.start(["tail", "Ada", "--since", cursors[1], "--json"])
        defer { tail.terminate() }
        // The backlog first, then what is sent while it runs, up to a last message: a repeat
        // anywhere shows as a line too many.
        var lines: [String] = []
        while lines.count < 3, let line = await tail.nextLine() { lines.append(line) }
        for text in ["live 0", "live 1", "last"] { #expect(try await ada.run(["send", "Grace", text]).status == 0) }
        while lines.last?.contains("\"last\"") != true, let line = await tail.nextLine() { lines.append(line) }
        let texts = lines.compactMap { $0.firstMatch(of: /"text":"([^"]+)"/).map { String($0.output.1) } }
        #expect(texts == ["backlog 2", "backlog 3", "backlog 4", "live 0", "live 1", "last"], "\(lines)")
        // The CLI's JSON schema: `…Id` keys and ISO 8601 times in UTC.
        #expect(
            lines.allSatisfy {
                $0.contains("\"conversationId\":") && $0.contains("\"senderId\":") && $0.contains(/"sentAt":"\d{4}-\d\d-\d\dT[0-9:.]+Z"/)
            },
            "\(lines.first ?? "")")
    }

    @Test("a server that is not there: one line naming its URL, exit 69, within the timeout")
    func unreachable() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-unreachable-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A listening socket that never answers: connects, then silence.
        let silent = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(silent) }
        var address = sockaddr_in(
            sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try #require(withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(silent, $0, length) } } == 0)
        try #require(listen(silent, 8) == 0)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(silent, $0, &length) } }
        let silentURL = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"

        for (url, reason) in [("http://127.0.0.1:1", "connection refused"), (silentURL, "no answer within 1 s")] {
            var machine = Machine("nobody", in: folder, server: url)
            machine.environment["MESSAGEAI_REMOTE_TIMEOUT_SECONDS"] = "1"
            let started = ContinuousClock.now
            let run = try await machine.run(["login", "--email", "a@example.com", "--password-stdin"], input: "password-a\n")
            // Under the default timeout (10 s), so the setting was used; the rest is slack for
            // starting a debug build's process on a machine busy with the other tests.
            #expect(ContinuousClock.now - started < .seconds(9))
            #expect(run.status == 69, "\(url): \(run.stderr)")
            #expect(run.stderr == "error: cannot reach the server at \(url): \(reason)\n")
        }
    }
}
