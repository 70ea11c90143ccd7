import ArchitectureModel
import ArchitectureRules
import FeatureScaffold
import Foundation
import Testing

@Suite("Feature scaffold", .timeLimit(.minutes(15)))
struct FeatureScaffoldTests {
    @Test("names that are not UpperCamelCase identifiers, or are reserved, are refused", arguments: ["notes", "N", "My-Notes", "Nötes", "Kernel", ""])
    func badNames(_ name: String) {
        #expect(throws: ToolError.self) { try FeatureScaffold(name: name) }
    }

    @Test("the generated sources pass every architecture rule")
    func generatedSourcesFollowTheRules() throws {
        let scaffold = try FeatureScaffold(name: "Notes")
        let graph = PackageGraph(targets: [
            PackageTarget(name: "Kernel", path: "Modules/Kernel"),
            PackageTarget(name: "CLIKit", path: "Modules/Frontends/CLIKit"),
            PackageTarget(name: "REPLKit", path: "Modules/Frontends/REPLKit"),
            PackageTarget(name: "Notes", path: "Modules/Notes/Core", targetDependencies: ["Kernel"]),
            PackageTarget(name: "NotesViews", path: "Modules/Notes/Views", targetDependencies: ["Kernel", "Notes", "CLIKit", "REPLKit"]),
        ])
        let sources = scaffold.files.filter { $0.key.hasPrefix("Modules/") }
        #expect(sources.count == 8)
        #expect(RuleFixtures.check(sources, graph: graph) == [])
    }

    @Test("generating refuses an existing feature and a lost marker, writing nothing")
    func refusals() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("scaffold-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        for file in ["Package.swift", "Modules/App/FeatureRegistry.swift", "Modules/Container/AppContainer.swift"] {
            let target = copy.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: ProjectCopy.source.appendingPathComponent(file), to: target)
        }
        try FileManager.default.createDirectory(at: copy.appendingPathComponent("Modules/Notes"), withIntermediateDirectories: true)
        #expect(throws: ToolError.self) { try FeatureScaffold(name: "Notes").generate(in: copy) }
        try FileManager.default.removeItem(at: copy.appendingPathComponent("Modules/Notes"))
        let registry = copy.appendingPathComponent("Modules/App/FeatureRegistry.swift")
        let original = try String(contentsOf: registry, encoding: .utf8)
        try original.replacingOccurrences(of: "// new-feature adds plugins above this line", with: "").write(to: registry, atomically: true, encoding: .utf8)
        #expect(throws: ToolError.self) { try FeatureScaffold(name: "Notes").generate(in: copy) }
        #expect(!FileManager.default.fileExists(atPath: copy.appendingPathComponent("Modules/Notes").path))
        #expect(try String(contentsOf: copy.appendingPathComponent("Package.swift"), encoding: .utf8)
                == String(contentsOf: ProjectCopy.source.appendingPathComponent("Package.swift"), encoding: .utf8))
    }

    /// How the copy is built: without debug information, which nobody reads there and which
    /// makes its build longer (docs/performance.md).
    static let buildFlags = "-Xswiftc -gnone -Xcc -g0"

    /// The whole promise on a copy of the project: generate, check, build, test, remove, identical
    /// again. The copy keeps only the app and the new feature's tests, with what they depend on
    /// (`ProjectCopy.trim`): the server, the tools and the other tests are not built.
    @Test("on a copy: a generated feature passes arch-check, builds into the app and passes its tests; removing it restores the copy",
          .timeLimit(.minutes(30)))
    func generateBuildTestRemove() async throws {
        let copy = ProjectCopy()
        try copy.sync(try await ProjectCopy.files())
        let before = try copy.snapshot()
        let scaffold = try FeatureScaffold(name: "ScaffoldSample")
        _ = try scaffold.generate(in: copy.root)

        let checker = try await ArchitectureChecker.load(packageAt: copy.root)
        #expect(checker.files.contains { $0.path == "Modules/ScaffoldSample/Core/ScaffoldSampleViewModel.swift" })
        #expect(checker.violations().map(\.description) == [])
        try copy.trim(keeping: ["messageai", "ScaffoldSampleTests"])
        let tests = String(decoding: try await ToolProcess.run(["sh", "-c", "swift test \(Self.buildFlags) --filter ScaffoldSampleTests 2>&1"],
                                                               in: copy.root),
                           as: UTF8.self)
        #expect(tests.contains("Test run with 3 tests in 1 suite passed"), "\(tests.suffix(1_000))")
        // The new feature alone starts on its own screen, and a typed line adds an item.
        _ = try await ToolProcess.run(["sh", "-c", "swift build \(Self.buildFlags) --product messageai"], in: copy.root)
        let alone = String(decoding: try await ToolProcess.run(["sh", "-c", "printf 'First item\\n/quit\\n' | HOME=$(mktemp -d) "
            + ".build/debug/messageai repl --backend memory --features scaffoldsample 2>&1"], in: copy.root), as: UTF8.self)
        #expect(alone.hasPrefix("ScaffoldSample: type a line to add an item") && alone.contains("2. First item"), "\(alone.prefix(1_000))")

        try copy.untrim()
        _ = try scaffold.remove(from: copy.root)
        #expect(try copy.snapshot() == before)
    }
}
