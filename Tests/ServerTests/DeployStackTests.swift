import Foundation
import Testing
import TestSupport

/// `Tools/Deploy/stack`, as an operator trying the scaled-out server would run it: PostgreSQL,
/// two instances and HAProxy at one address.
@Suite("Deployment stack", .timeLimit(.minutes(3)))
struct DeployStackTests {
    @Test("stack start serves through HAProxy and each instance serves what went through it; one instance killed, the proxy serves from the other within 3 s; stack stop ends everything")
    func stackServesThroughTheProxy() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-stack-\(UUID().uuidString)")
        let port = TestPorts.reserve(consecutive: 3)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Tools/Deploy/stack").standardized.path
        func stack(_ arguments: String...) async throws -> SpawnedProgram.Run {
            let argv = [script] + arguments + ["--folder", folder.path]
            return try await OwnThread.run { try SpawnedProgram.run(argv) }
        }
        defer {
            _ = try? SpawnedProgram.run([script, "stop", "--folder", folder.path])
            try? FileManager.default.removeItem(at: folder)
        }
        let started = try await stack("start", "--port", String(port), "--server", ServerProcess.executable.path)
        try #require(started.status == 0, "stack start failed: \(started.output)")
        #expect(started.output.contains("serving at http://127.0.0.1:\(port) (2 instances"))

        let proxy = HTTPProbe(base: "http://127.0.0.1:\(port)")
        #expect(try await proxy.send("GET", "/v1/health").status == 200)
        let ada = try await proxy.signUp("Ada"), grace = try await proxy.signUp("Grace")
        let conversation = try await proxy.startDirect(ada.token, with: grace.id)
        let sent = try await proxy.send("PUT", "/v1/conversations/\(conversation)/messages/m-1", token: ada.token, json: ["text": "hi"])
        #expect(sent.status == 200, "\(sent.status)")
        // Each instance serves what was stored through the proxy.
        for instance in [port + 1, port + 2] {
            let history = try await HTTPProbe(base: "http://127.0.0.1:\(instance)").send("GET", "/v1/conversations/\(conversation)/messages",
                                                                                        token: ada.token)
            #expect(history.status == 200 && String(decoding: history.body, as: UTF8.self).contains("\"hi\""), "instance :\(instance)")
        }

        let pid = try #require(Int32(String(contentsOf: folder.appendingPathComponent("instance-1.pid"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, SIGKILL)
        let killed = ContinuousClock.now
        var served = 0
        for _ in 0..<30 where served < 10 {
            served = (try? await proxy.send("GET", "/v1/profiles/me", token: ada.token).status) == 200 ? served + 1 : 0
        }
        #expect(served == 10 && ContinuousClock.now - killed < .seconds(3), "\(served) requests in a row served \(ContinuousClock.now - killed) after the kill")

        #expect(try await stack("stop").status == 0)
        let status = try await stack("status")
        #expect(status.status == 1 && status.output.contains("proxy: not running") && status.output.contains("postgres: not running"), "\(status.output)")
    }
}
