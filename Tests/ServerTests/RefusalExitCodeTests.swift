import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// Exit codes the real server gives the CLI no honest way to reach: 76 (forbidden) needs the
/// caller to stop being a member between naming the conversation and sending to it, and 70
/// (internal) a server bug. A relay in front of a real server passes every request on, and
/// answers the send with the refusal instead.
@Suite("Refusals as exit codes", .timeLimit(.minutes(1)))
struct RefusalExitCodeTests {
    @Test(
        "a send refused 403 forbidden exits 76, one answered 500 internal exits 70, each with one line",
        arguments: [
            (403, "forbidden", "you are not a member of conversation x", Int32(76)),
            (500, "internal", "the server failed; the failure is in its log", Int32(70)),
        ])
    func refusedSend(status: Int, kind: String, message: String, exit: Int32) async throws {
        try await InProcessServer.live { world in
            let router = Router()
            for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
                router.on("**", method: method) { request, _ -> Response in
                    if method == .put, request.uri.path.contains("/messages/") {
                        let body = #"{"error":{"kind":"\#(kind)","message":"\#(message)"}}"#
                        return Response(
                            status: .init(code: status), headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(string: body)))
                    }
                    let body = try await request.body.collect(upTo: 1 << 20)
                    var headers = ["Content-Type": "application/json"]
                    headers["Authorization"] = request.headers[.authorization]
                    let answer = try await world.probe.send(method.rawValue, request.uri.description, body: Data(buffer: body), headers: headers)
                    return Response(
                        status: .init(code: answer.status), headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
                }
            }
            try await Application(router: router).test(.live) { relay in
                let url = "http://127.0.0.1:\(try #require(relay.port))"
                let ada = world.machine("ada", url: url), grace = world.machine("grace", url: url)
                _ = try await ada.signUp("Ada")
                _ = try await grace.signUp("Grace")
                try await ada.startChat(as: "Ada", with: grace, "Grace")
                let sent = try await ada.run(["send", "Grace", "hello"])
                #expect(sent.status == exit && sent.stderr == "error: \(message)\n", "\(sent.status): \(sent.stderr)")
            }
        }
    }
}
