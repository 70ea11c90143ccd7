import ArchitectureModel
import ArchitectureRules
import FeatureScaffold
import Foundation
import Testing

/// Serialized: the round trips share one copy of the project.
@Suite("Feature scaffold", .serialized, .timeLimit(.minutes(15)))
struct FeatureScaffoldTests {
    @Test(
        "names that are not UpperCamelCase identifiers, or are reserved, are refused", arguments: ["notes", "N", "My-Notes", "Nötes", "Kernel", ""])
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

    @Test("with --wire, the API, Server and Remote sources pass every architecture rule too, each in its target")
    func generatedWireSourcesFollowTheRules() throws {
        let scaffold = try FeatureScaffold(name: "Notes", wire: true)
        let graph = PackageGraph(targets: [
            PackageTarget(name: "Kernel", path: "Modules/Kernel"),
            PackageTarget(name: "CLIKit", path: "Modules/Frontends/CLIKit"),
            PackageTarget(name: "REPLKit", path: "Modules/Frontends/REPLKit"),
            PackageTarget(name: "RemoteClient", path: "Modules/Infrastructure/RemoteClient", targetDependencies: ["Kernel"]),
            PackageTarget(name: "ServerSupport", path: "Modules/Infrastructure/ServerSupport", targetDependencies: ["Kernel"]),
            PackageTarget(name: "Notes", path: "Modules/Notes/Core", targetDependencies: ["Kernel"]),
            PackageTarget(name: "NotesViews", path: "Modules/Notes/Views", targetDependencies: ["Kernel", "Notes", "CLIKit", "REPLKit"]),
            PackageTarget(name: "NotesAPI", path: "Modules/Notes/API", targetDependencies: ["Kernel", "Notes"]),
            PackageTarget(name: "NotesRemote", path: "Modules/Notes/Remote", targetDependencies: ["Kernel", "Notes", "NotesAPI", "RemoteClient"]),
            PackageTarget(name: "NotesServer", path: "Modules/Notes/Server", targetDependencies: ["Kernel", "Notes", "NotesAPI", "ServerSupport"]),
        ])
        let sources = scaffold.files.filter { $0.key.hasPrefix("Modules/") }
        #expect(
            Set(sources.keys).subtracting(try FeatureScaffold(name: "Notes").files.keys)
                == ["Modules/Notes/API/NotesAPI.swift", "Modules/Notes/Server/NotesRoutes.swift", "Modules/Notes/Remote/RemoteNotesService.swift"])
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
        try original.replacingOccurrences(of: "// new-feature adds plugins above this line", with: "").write(
            to: registry, atomically: true, encoding: .utf8)
        #expect(throws: ToolError.self) { try FeatureScaffold(name: "Notes").generate(in: copy) }
        #expect(!FileManager.default.fileExists(atPath: copy.appendingPathComponent("Modules/Notes").path))
        #expect(
            try String(contentsOf: copy.appendingPathComponent("Package.swift"), encoding: .utf8)
                == String(contentsOf: ProjectCopy.source.appendingPathComponent("Package.swift"), encoding: .utf8))
    }

    /// How the copy is built: without debug information, which nobody reads there and which
    /// makes its build longer (docs/performance.md).
    static let buildFlags = "-Xswiftc -gnone -Xcc -g0"

    /// Set to 1 to run `appRoundTrip`, which builds the app's whole dependency graph in the copy
    /// (about 4 minutes on a new clone): CI runs it as a step of its own after the suite, so that
    /// it does not load the machine beside every other suite's timed checks.
    static let appRoundTripVariable = "SCAFFOLD_APP_ROUNDTRIP"

    /// The promise on a copy of the project: generate, check, build the new feature's targets,
    /// pass its tests, remove, identical again. The copy keeps only the feature's targets and
    /// tests (`ProjectCopy.trim`), which need the kernel, the front-end kits and ArgumentParser.
    @Test(
        "on a copy: a generated feature (with --wire and --store) touches 3 files outside its folders, passes arch-check, its targets build and its tests pass; removing it restores the copy"
    )
    func generateBuildTestRemove() async throws {
        try await Self.roundTrip(keeping: ["ScaffoldSampleViews", "ScaffoldSampleTests"]) { copy in
            _ = try await ToolProcess.run(["sh", "-c", "swift build \(Self.buildFlags) --target ScaffoldSampleViews"], in: copy.root)
            let tests = String(
                decoding: try await ToolProcess.run(
                    ["sh", "-c", "swift test \(Self.buildFlags) --filter ScaffoldSampleTests 2>&1"],
                    in: copy.root),
                as: UTF8.self)
            #expect(tests.contains("Test run with 3 tests in 1 suite passed"), "\(tests.suffix(1_000))")
        }
    }

    /// The rest of the promise: the generated feature builds into the app, which starts on its
    /// screen when it is the only feature enabled; its routes (`--wire`) build too.
    @Test(
        "on a copy: a generated feature builds into the app, which starts on its screen alone, and its stores build; removing it restores the copy",
        .enabled(
            if: ProcessInfo.processInfo.environment[FeatureScaffoldTests.appRoundTripVariable] == "1",
            "builds the app's whole dependency graph in a copy: set SCAFFOLD_APP_ROUNDTRIP=1 (CI does)"))
    func appRoundTrip() async throws {
        try await Self.roundTrip(keeping: ["messageai", "ScaffoldSampleServer", "ScaffoldSampleLive"]) { copy in
            _ = try await ToolProcess.run(["sh", "-c", "swift build \(Self.buildFlags) --product messageai"], in: copy.root)
            _ = try await ToolProcess.run(["sh", "-c", "swift build \(Self.buildFlags) --target ScaffoldSampleServer"], in: copy.root)
            _ = try await ToolProcess.run(["sh", "-c", "swift build \(Self.buildFlags) --target ScaffoldSampleLive"], in: copy.root)
            // The new feature alone starts on its own screen, and a typed line adds an item.
            let alone = String(
                decoding: try await ToolProcess.run(
                    [
                        "sh", "-c",
                        "printf 'First item\\n/quit\\n' | HOME=$(mktemp -d) "
                            + ".build/debug/messageai repl --backend memory --features scaffoldsample 2>&1",
                    ], in: copy.root), as: UTF8.self)
            #expect(alone.hasPrefix("ScaffoldSample: type a line to add an item") && alone.contains("2. First item"), "\(alone.prefix(1_000))")
        }
    }

    /// Generates the feature in a fresh copy of the project, checks it against every rule, trims
    /// the copy to `targets` and what they depend on, runs `build`, then removes the feature and
    /// checks that every file is as it was.
    private static func roundTrip(keeping targets: [String], build: (ProjectCopy) async throws -> Void) async throws {
        let copy = ProjectCopy()
        try copy.sync(try await ProjectCopy.files())
        let before = try copy.snapshot()
        let scaffold = try FeatureScaffold(name: "ScaffoldSample", wire: true, store: true)
        _ = try scaffold.generate(in: copy.root)
        // Outside its own folders, a feature touches only the registry and the composition roots.
        let touched = try copy.snapshot().filter { before[$0.key] != $0.value }.keys.filter { path in
            !scaffold.folders.contains { path.hasPrefix($0 + "/") }
        }
        #expect(touched.sorted() == ["Modules/App/FeatureRegistry.swift", "Modules/Container/AppContainer.swift", "Package.swift"])

        let checker = try await ArchitectureChecker.load(packageAt: copy.root)
        #expect(checker.files.contains { $0.path == "Modules/ScaffoldSample/Core/ScaffoldSampleViewModel.swift" })
        #expect(checker.files.contains { $0.path == "Modules/ScaffoldSample/Server/ScaffoldSampleRoutes.swift" })
        #expect(checker.files.contains { $0.path == "Modules/ScaffoldSample/Live/SQLite/SQLScaffoldSampleStore.swift" })
        #expect(checker.violations().map(\.description) == [])
        try copy.trim(keeping: targets)
        var failure: (any Error)?
        do { try await build(copy) } catch { failure = error }
        try copy.untrim()
        _ = try scaffold.remove(from: copy.root)
        if let failure { throw failure }
        #expect(try copy.snapshot() == before)
    }
}
