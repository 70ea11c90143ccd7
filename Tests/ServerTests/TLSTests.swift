import Foundation
import Testing
import TestSupport

/// With a certificate and key the server speaks HTTPS and WSS only, and the client verifies it:
/// a client that trusts the certificate chats; one that does not is refused before anything is sent.
@Suite("TLS", .timeLimit(.minutes(2)))
struct TLSTests {
    @Test("a self-signed server: trusted, the client works; untrusted, exit 69 naming TLS")
    func selfSigned() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificate = folder.appendingPathComponent("cert.pem").path, key = folder.appendingPathComponent("key.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                             "-addext", "subjectAltName=DNS:localhost", "-keyout", key, "-out", certificate]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        try #require(openssl.terminationStatus == 0, "openssl could not make a certificate")

        let server = try await ServerProcess(databasePath: folder.appendingPathComponent("server.sqlite").path,
                                             arguments: ["--tls-cert", certificate, "--tls-key", key])
        defer { server.stop() }
        #expect(server.url.hasPrefix("https://"))
        // Certificates are checked by name: the client refuses an https server named by address.
        let url = server.url.replacing("127.0.0.1", with: "localhost")
        let byAddress = try await Machine("any", in: folder, server: server.url).run(["whoami"])
        #expect(byAddress.status == 64 && byAddress.stderr.contains("by its host name"), "\(byAddress.stderr)")

        var ada = Machine("ada", in: folder, server: url), grace = Machine("grace", in: folder, server: url)
        ada.environment["MESSAGEAI_REMOTE_CERTIFICATES"] = certificate
        grace.environment["MESSAGEAI_REMOTE_CERTIFICATES"] = certificate
        _ = try await ada.signUp("Ada")
        _ = try await grace.signUp("Grace")
        #expect(try await ada.run(["chats", "new", "grace@example.com"]).status == 0)
        let tail = try grace.start(["tail"])
        defer { tail.stop() }
        var line: String?
        for attempt in 0..<50 where line == nil {
            #expect(try await ada.run(["send", "Grace", "over wss \(attempt)"]).status == 0)
            line = await tail.nextLine(within: .milliseconds(300))
        }
        #expect(line?.contains("over wss") == true, "the events socket did not deliver over TLS")

        let doubting = Machine("eve", in: folder, server: url)
        let refused = try await doubting.run(["login", "--email", "ada@example.com", "--password-stdin"], input: "password-Ada\n")
        #expect(refused.status == 69)
        #expect(refused.stderr == "error: cannot reach the server at \(url): TLS failed: its certificate is not trusted here (trust it with remote.certificates)\n", "\(refused.stderr)")

        let plain = try await Machine("plain", in: folder, server: url.replacing("https", with: "http"))
            .run(["login", "--email", "ada@example.com", "--password-stdin"], input: "password-Ada\n")
        #expect(plain.status == 69 && plain.stderr.contains("closed the connection"), "plain HTTP to a TLS server: \(plain.stderr)")
    }
}
