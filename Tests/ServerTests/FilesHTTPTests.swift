import Foundation
import Testing

/// Files over the wire as a hostile client sends them: names that try to be paths or escapes,
/// bodies that stop short of what they declared, ranges past the end, strangers and guessed ids.
@Suite("Files over HTTP", .timeLimit(.minutes(2)))
struct FilesHTTPTests {
    @Test("hostile names are made safe or refused; a body cut short of its Content-Length keeps nothing; an empty file is a file")
    func hostileUploads() async throws {
        try await InProcessServer.live { server in
            let probe = server.probe
            let ada = try await probe.signUp("Ada"), grace = try await probe.signUp("Grace")
            let conversation = try await probe.startDirect(ada.token, with: grace.id)
            _ = try await probe.startDirect(grace.token, with: ada.id)
            let files = "/v1/conversations/\(conversation)/messages"
            func upload(_ message: String, name: String, _ body: Data) async throws -> HTTPProbe.Answer {
                try await probe.send("PUT", "\(files)/\(message)/files?name=\(name)", token: ada.token, body: body)
            }
            let hostile = try await upload("m1", name: "..%2F..%2Fetc%2Fpasswd%00%1B%5B31m%E2%80%AE.txt", Data("x".utf8))
            #expect(
                hostile.status == 200 && hostile.json?["name"] as? String == "etc_passwd[31m.txt", "\(String(decoding: hostile.body, as: UTF8.self))")
            let long = try await upload("m2", name: String(repeating: "a", count: 4_000), Data("x".utf8))
            #expect(long.status == 400 && long.errorKind == "invalidInput", "a name of 4,000 characters: \(long.status)")
            let empty = try await upload("m3", name: "empty", Data())
            #expect(empty.status == 200 && empty.json?["size"] as? Int == 0)

            // Content-Length says 100,000; 10 bytes come, and the connection closes.
            let port = try #require(URL(string: server.url)?.port)
            let head = "PUT \(files)/m4/files?name=cut HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ada.token)\r\nContent-Length: 100000\r\n\r\n"
            let socket = try SilentSocket(port: port)
            socket.writeText(head + String(repeating: "x", count: 10))
            socket.hangUp()
            // Whether the server has dropped the cut upload yet or not, the retry stores the whole file, once.
            let retried = try await upload("m4", name: "cut", Data("whole".utf8))
            #expect(retried.status == 200 && retried.json?["size"] as? Int == 5, "\(String(decoding: retried.body, as: UTF8.self))")
            let listed = try await probe.send("GET", "\(files)/m4/files", token: ada.token)
            #expect(listed.status == 200 && (listed.json?["files"] as? [Any])?.count == 0, "the upload is not sent: nobody lists it yet")
        }
    }

    @Test("downloads: one range (206), a suffix, past the end (416), several ranges (the whole file); strangers and guessed ids 404")
    func downloads() async throws {
        try await InProcessServer.live { server in
            let probe = server.probe
            let ada = try await probe.signUp("Ada"), grace = try await probe.signUp("Grace"), eve = try await probe.signUp("Eve")
            let conversation = try await probe.startDirect(ada.token, with: grace.id)
            _ = try await probe.startDirect(grace.token, with: ada.id)
            let bytes = Data((0..<10_000).map { UInt8($0 % 251) })
            let messages = "/v1/conversations/\(conversation)/messages"
            let uploaded = try await probe.send("PUT", "\(messages)/m1/files?name=page.html&type=text%2Fhtml", token: ada.token, body: bytes)
            let id = try #require(uploaded.json?["id"] as? String)
            #expect(uploaded.json?["mediaType"] as? String == "text/html")
            #expect(try await probe.send("PUT", "\(messages)/m1", token: ada.token, json: ["text": "", "attachments": [id]]).status == 200)
            let path = "/v1/files/\(id)/bytes"
            let whole = try await probe.send("GET", path, token: grace.token)
            #expect(whole.status == 200 && whole.body == bytes)
            #expect(whole.headers["content-type"] == "application/octet-stream", "never the sender's text/html")
            #expect(whole.headers["x-content-type-options"] == "nosniff" && whole.headers["content-disposition"]?.hasPrefix("attachment") == true)
            let part = try await probe.send("GET", path, token: grace.token, headers: ["Range": "bytes=100-199"])
            #expect(part.status == 206 && part.body == bytes[100..<200] && part.headers["content-range"] == "bytes 100-199/10000")
            let suffix = try await probe.send("GET", path, token: grace.token, headers: ["Range": "bytes=-10"])
            #expect(suffix.status == 206 && suffix.body == bytes[9_990...])
            let past = try await probe.send("GET", path, token: grace.token, headers: ["Range": "bytes=10000-"])
            #expect(past.status == 416 && past.headers["content-range"] == "bytes */10000")
            let several = try await probe.send("GET", path, token: grace.token, headers: ["Range": "bytes=0-1,5-6"])
            #expect(several.status == 200 && several.body == bytes, "several ranges: the whole file")
            for (who, token, asked) in [
                ("a stranger", eve.token, path), ("a stranger, its facts", eve.token, "/v1/files/\(id)"),
                ("a guessed id", grace.token, "/v1/files/0123456789abcde/bytes"),
            ] {
                let refused = try await probe.send("GET", asked, token: token)
                #expect(refused.status == 404 && refused.errorKind == "notFound" && refused.body.range(of: bytes[0..<100]) == nil, "\(who)")
            }
        }
    }
}
