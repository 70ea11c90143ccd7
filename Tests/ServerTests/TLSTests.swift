import Foundation
import TestSupport
import Testing

/// With a certificate and key the server speaks HTTPS and WSS only, and the client verifies it:
/// a client that trusts the certificate chats; one that does not is refused before anything is sent.
@Suite("TLS", .timeLimit(.minutes(2)))
struct TLSTests {
    @Test("a self-signed server: trusted, the client works; untrusted, exit 69 naming TLS; only TLS 1.2+ with ECDHE and AEAD ciphers")
    func selfSigned() async throws {
        var certificate = ""
        let world = try await ServerWorld { folder in
            certificate = folder.appendingPathComponent("cert.pem").path
            let key = folder.appendingPathComponent("key.pem").path
            let openssl = Process()
            openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            openssl.arguments = [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost", "-keyout", key, "-out", certificate,
            ]
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
        try await ada.startChat(as: "Ada", with: grace, "Grace")
        let tail = try grace.start(["tail"])
        defer { tail.terminate() }
        let line = try await ada.sendUntilSeen("over wss", to: "Grace", by: tail)
        #expect(line?.contains("over wss") == true, "the events socket did not deliver over TLS")

        let doubting = world.machine("eve", url: url)
        let refused = try await doubting.run(["login", "--email", "ada@example.com", "--password-stdin"], input: "password-Ada\n")
        #expect(refused.status == 69)
        #expect(
            refused.stderr
                == "error: cannot reach the server at \(url): TLS failed: its certificate is not trusted here (trust it with remote.certificates)\n",
            "\(refused.stderr)")

        let plain = try await world.machine("plain", url: url.replacing("https", with: "http"))
            .run(["login", "--email", "ada@example.com", "--password-stdin"], input: "password-Ada\n")
        #expect(plain.status == 69 && plain.stderr.contains("closed the connection"), "plain HTTP to a TLS server: \(plain.stderr)")

        // What a client may negotiate, asked with `openssl s_client` willing to offer anything.
        for (protocolFlag, cipher, accepted) in [
            ("-tls1", "DEFAULT", false), ("-tls1_1", "DEFAULT", false),
            ("-tls1_2", "AES128-GCM-SHA256", false), ("-tls1_2", "ECDHE-RSA-AES128-SHA", false),
            ("-tls1_2", "ECDHE-RSA-AES128-GCM-SHA256", true), ("-tls1_2", "ECDHE-RSA-CHACHA20-POLY1305", true),
            ("-tls1_3", "DEFAULT", true),
        ] {
            let handshake = try await Self.handshake(port: server.port, protocolFlag, cipher: cipher)
            #expect(handshake == accepted, "\(protocolFlag) \(cipher): \(handshake ? "accepted" : "refused")")
        }
    }

    /// Whether `openssl s_client` completes a handshake with the server offering only
    /// `protocolFlag` and, below TLS 1.3, `cipher` (at OpenSSL's lowest security level, so that
    /// the client refuses nothing itself).
    private static func handshake(port: Int, _ protocolFlag: String, cipher: String) async throws -> Bool {
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["s_client", "-connect", "127.0.0.1:\(port)", protocolFlag, "-cipher", "\(cipher):@SECLEVEL=0"]
        let finished = try await openssl.runToEnd()
        return finished.status == 0 && finished.output.contains("Cipher is") && !finished.output.contains("Cipher is (NONE)")
    }
}
