import Foundation
import Testing
import TestSupport

/// With a certificate and key the server speaks HTTPS and WSS only, and the client verifies it:
/// a client that trusts the certificate chats; one that does not is refused before anything is sent.
@Suite("TLS", .timeLimit(.minutes(2)))
struct TLSTests {
    @Test("a self-signed server: trusted, the client works; untrusted, exit 69 naming TLS")
    func selfSigned() async throws {
        var certificate = ""
        let world = try await ServerWorld { folder in
            certificate = folder.appendingPathComponent("cert.pem").path
            let key = folder.appendingPathComponent("key.pem").path
            let openssl = Process()
            openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                                 "-addext", "subjectAltName=DNS:localhost", "-keyout", key, "-out", certificate]
            openssl.standardError = FileHandle.nullDevice
            try openssl.run()
            await openssl.ended()
            return ["--tls-cert", certificate, "--tls-key", key]
        }
        defer { world.remove() }
        let server = world.server
        #expect(server.url.hasPrefix("https://"))
        // Certificates are checked by name: the client refuses an https server named by address.
        let url = server.url.replacing("127.0.0.1", with: "localhost")
        let byAddress = try await world.machine("any").run(["whoami"])
        #expect(byAddress.status == 64 && byAddress.stderr.contains("by its host name"), "\(byAddress.stderr)")

        var ada = world.machine("ada", url: url), grace = world.machine("grace", url: url)
        ada.environment["MESSAGEAI_REMOTE_CERTIFICATES"] = certificate
        grace.environment["MESSAGEAI_REMOTE_CERTIFICATES"] = certificate
        _ = try await ada.signUp("Ada")
        _ = try await grace.signUp("Grace")
        #expect(try await ada.run(["chats", "new", "grace@example.com"]).status == 0)
        let tail = try grace.start(["tail"])
        defer { tail.terminate() }
        let line = try await ada.sendUntilSeen("over wss", to: "Grace", by: tail)
        #expect(line?.contains("over wss") == true, "the events socket did not deliver over TLS")

        let doubting = world.machine("eve", url: url)
        let refused = try await doubting.run(["login", "--email", "ada@example.com", "--password-stdin"], input: "password-Ada\n")
        #expect(refused.status == 69)
        #expect(refused.stderr == "error: cannot reach the server at \(url): TLS failed: its certificate is not trusted here (trust it with remote.certificates)\n", "\(refused.stderr)")

        let plain = try await world.machine("plain", url: url.replacing("https", with: "http"))
            .run(["login", "--email", "ada@example.com", "--password-stdin"], input: "password-Ada\n")
        #expect(plain.status == 69 && plain.stderr.contains("closed the connection"), "plain HTTP to a TLS server: \(plain.stderr)")
    }
}
