import Foundation
import Testing
import TestSupport

/// Schemathesis (from PyPI) drives every operation of the OpenAPI document with generated
/// requests, valid and broken, signed in and not; the server must never answer 5xx or fall over.
@Suite("API fuzzing", .timeLimit(.minutes(10)))
struct APIFuzzTests {
    /// The version the tests pin, installed into `.build/fuzz-venv` (by `.ci/run`, or here on first use).
    static let schemathesis = "schemathesis==4.32.5"
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let venv = packageRoot.appendingPathComponent(".build/fuzz-venv")

    @Test("generated requests to every route: no 5xx, the server keeps running")
    func fuzzEveryRoute() async throws {
        let tool = try await Self.installed()
        let world = try await ServerWorld()
        defer { world.remove() }
        let server = world.server
        let user = try await world.probe.signUp("Fuzz")
        let (status, output) = try await Self.run(tool, ["run", server.url + "/v1/openapi.json", "--checks", "not_a_server_error",
                                                   "--header", "Authorization: Bearer \(user.token)", "--max-examples", "40",
                                                   "--workers", "1", "--seed", "20261122", "--no-color"], in: world.folder)
        let summary = output.split(separator: "\n").filter { $0.contains("generated") || $0.contains("Selected") || $0.contains("Tested") }
        print("schemathesis: " + summary.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; "))
        #expect(status == 0, "schemathesis found failures:\n\(output.suffix(4_000))")
        let generated = output.firstMatch(of: /(\d+) generated/).flatMap { Int($0.output.1) } ?? 0
        #expect(generated > 500, "too few cases generated: \(summary)")
        #expect(!server.log.contains(" error "), "the server logged errors:\n\(server.log.suffix(2_000))")
        #expect(try await HTTPProbe(base: server.url).send("GET", "/v1/openapi.json").status == 200)
    }

    /// The schemathesis command, installing it on first use.
    static func installed() async throws -> URL {
        let tool = venv.appendingPathComponent("bin/schemathesis")
        if FileManager.default.isExecutableFile(atPath: tool.path) { return tool }
        let python = venv.appendingPathComponent("bin/python")
        if !FileManager.default.isExecutableFile(atPath: python.path) {
            let (status, output) = try await run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-m", "venv", venv.path], in: packageRoot)
            try #require(status == 0, "python3 -m venv failed: \(output)")
        }
        let (status, output) = try await run(python, ["-m", "pip", "install", "--quiet", schemathesis], in: packageRoot)
        try #require(status == 0, "pip install \(schemathesis) failed: \(output.suffix(2_000))")
        return tool
    }

    static func run(_ executable: URL, _ arguments: [String], in folder: URL) async throws -> (Int32, String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = await pipe.readAll()
        return (await process.ended(), String(decoding: output, as: UTF8.self))
    }
}
