import Foundation
import Kernel
import TestSupport
import Testing

/// What an operator reads at `GET /metrics`: the instance's own counts, in Prometheus' text format.
@Suite("Metrics", .timeLimit(.minutes(2)))
struct MetricsTests {
    @Test("open sockets, sends stored, commit batches and times, refusals by kind and the feed's lag, as the server lived them")
    func countsWhatHappened() async throws {
        let world = try await ServerWorld()
        defer { world.remove() }
        let ada = try await world.probe.signUp("Ada"), grace = try await world.probe.signUp("Grace")
        let socket = try SilentSocket(port: world.port, token: grace.token)
        defer { socket.hangUp() }
        #expect(await OwnThread.run { socket.status(within: 10) } == 101)
        let conversation = try await world.probe.startDirect(ada.token, with: grace.id)
        for index in 0..<5 {
            let sent = try await world.probe.send(
                "PUT", "/v1/conversations/\(conversation)/messages/m-\(index)", token: ada.token, json: ["text": "hi \(index)"])
            #expect(sent.status == 200, "\(sent.status)")
        }
        // The same id again is found, not stored again; a forged token is refused.
        _ = try await world.probe.send("PUT", "/v1/conversations/\(conversation)/messages/m-0", token: ada.token, json: ["text": "hi 0"])
        #expect(try await world.probe.send("GET", "/v1/profiles/me", token: "forged").status == 401)

        let scrape = try await world.probe.send("GET", "/metrics")
        #expect(scrape.status == 200 && scrape.headers["content-type"]?.hasPrefix("text/plain") == true)
        let samples = Self.samples(String(decoding: scrape.body, as: UTF8.self))
        #expect(samples["messageai_sockets_open"] == 1)
        #expect(samples["messageai_sends_stored_total"] == 5)
        #expect((samples["messageai_commit_batch_size_count"] ?? 0) >= 5 && (samples["messageai_commit_batch_size_sum"] ?? 0) >= 6)
        #expect((samples["messageai_commit_seconds_count"] ?? 0) >= 5)
        #expect(samples[#"messageai_refusals_total{kind="notSignedIn"}"#] == 1)
        #expect(samples["messageai_feed_lag_events"] == 0)
    }

    /// Each sample line's value by its name and labels.
    private static func samples(_ text: String) -> [String: Double] {
        Dictionary(
            text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line -> (String, Double)? in
                guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { return nil }
                return (String(line[..<space]), value)
            }, uniquingKeysWith: { first, _ in first })
    }
}
