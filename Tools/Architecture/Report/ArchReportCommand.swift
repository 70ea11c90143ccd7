import ArchitectureModel
import ArgumentParser
import Foundation

/// `swift run arch-report`: the seeds' success metrics, measured.
@main
struct ArchReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "arch-report",
        abstract: "Print files per feature, lines per view model and per target, line coverage of Modules/ and the module graph.",
        discussion: """
            Coverage comes from the last `swift test --enable-code-coverage` (pass --run-tests to run it first, \
            which rebuilds everything with coverage on: several minutes). --build-cores builds each feature core \
            alone from a clean scratch folder and lists the modules it compiled. --check exits 1 when a target \
            (coverage ≥ \(Int(coverageTarget))%, view models ≤ \(ArchitectureMetrics.viewModelLimit) lines, cores free of \
            other packages) is missed.
            """)

    @Option(help: "The package root.") var package = "."
    @Option(help: "An llvm-cov export JSON to read instead of the last coverage run's.") var coverage: String?
    @Flag(help: "Run `swift test --enable-code-coverage` first.") var runTests = false
    @Flag(help: "Build each feature core alone from clean, and time it.") var buildCores = false
    @Flag(help: "Exit 1 when a target is missed.") var check = false

    static let coverageTarget = 90.0

    func run() async throws {
        let root = URL(fileURLWithPath: package).standardizedFileURL
        let graph = try await PackageGraph.describe(packageAt: root)
        let metrics = try ArchitectureMetrics(graph: graph, root: root)
        var missed: [String] = []

        print("Features (source files per part; view-model lines; what the core needs)")
        for feature in metrics.features {
            let parts = feature.files.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            let models = feature.viewModelLines.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            let alone = feature.corePackages.isEmpty ? "no other package" : "packages: \(feature.corePackages.joined(separator: ", "))"
            print(
                "  \(feature.name): \(feature.fileCount) files (\(parts)); view models: \(models.isEmpty ? "none" : models); "
                    + "core needs \(feature.coreClosure.joined(separator: ", ")), \(alone)")
            if !feature.corePackages.isEmpty { missed.append("\(feature.name)'s core needs \(feature.corePackages.joined(separator: ", "))") }
        }
        let modulesFiles = graph.targets.filter { $0.path.hasPrefix("Modules/") }.map(\.sources.count).reduce(0, +)
        print("Whole project: \(modulesFiles) source files in Modules/, \(metrics.features.count) features")
        if let largest = metrics.largestViewModel {
            let ok = largest.lines <= ArchitectureMetrics.viewModelLimit
            print("Largest view model: \(largest.name), \(largest.lines) lines (limit \(ArchitectureMetrics.viewModelLimit)) \(ok ? "✔" : "✘")")
            if !ok { missed.append("\(largest.name) has \(largest.lines) lines") }
        }

        print("\nTargets (source files, lines, files of ≤ \(ArchitectureMetrics.smallFileLines) lines)")
        for size in metrics.targetSizes {
            print("  \(size.name): \(size.files) files, \(size.lines) lines, \(size.smallFiles) small")
        }
        let sizes = metrics.targetSizes
        print(
            "  all: \(sizes.map(\.files).reduce(0, +)) files, \(sizes.map(\.lines).reduce(0, +)) lines, \(sizes.map(\.smallFiles).reduce(0, +)) small"
        )

        print("")
        if let coverage = try await lineCoverage(root: root) {
            let total = coverage.total(under: "Modules/")
            let ok = total.percent >= Self.coverageTarget
            print(
                "Line coverage of Modules/: \(format(total.percent))% (\(total.covered) of \(total.lines) lines; target ≥ \(Int(Self.coverageTarget))%) \(ok ? "✔" : "✘")"
            )
            for area in coverageAreas(graph) {
                let count = coverage.total(under: area + "/")
                if count.lines > 0 { print("  \(area): \(format(count.percent))% (\(count.covered)/\(count.lines))") }
            }
            if !ok { missed.append("coverage \(format(total.percent))%") }
        } else {
            print("Line coverage of Modules/: not measured — run `swift test --enable-code-coverage` first, or pass --run-tests")
        }

        if buildCores {
            print("")
            for feature in metrics.features { try await buildAlone(feature, root: root) }
        }

        let diagram = DependencyDiagram(graph: graph)
        print("\nModule graph (Modules/ and Apps/)")
        diagram.text.forEach { print("  \($0)") }
        print("\nAs Mermaid:")
        diagram.mermaid.forEach { print($0) }

        if !missed.isEmpty {
            print("\nMissed: \(missed.joined(separator: "; "))")
            if check { throw ExitCode(1) }
        }
    }

    private func lineCoverage(root: URL) async throws -> LineCoverage? {
        if runTests {
            FileHandle.standardError.write(Data("arch-report: running swift test --enable-code-coverage (minutes)…\n".utf8))
            _ = try await ToolProcess.run(["swift", "test", "--enable-code-coverage"], in: root)
        }
        let path: String
        if let coverage {
            path = coverage
        } else {
            let shown = try await ToolProcess.run(["swift", "test", "--show-codecov-path"], in: root)
            path = String(decoding: shown, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard let json = FileManager.default.contents(atPath: path) else { return nil }
        return try LineCoverage(json: json, root: root)
    }

    /// Features, then the shared folders of `Modules/`.
    private func coverageAreas(_ graph: PackageGraph) -> [String] {
        let folders = graph.targets.filter { $0.path.hasPrefix("Modules/") }.map { $0.path.split(separator: "/").prefix(2).joined(separator: "/") }
        return Array(Set(folders)).sorted()
    }

    private func buildAlone(_ feature: ArchitectureMetrics.Feature, root: URL) async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("arch-report-\(feature.name)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let started = ContinuousClock.now
        _ = try await ToolProcess.run(["swift", "build", "--target", feature.name, "--scratch-path", scratch.path], in: root)
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        let modules = (try? FileManager.default.contentsOfDirectory(atPath: scratch.appendingPathComponent("debug/Modules").path)) ?? []
        let compiled = modules.filter { $0.hasSuffix(".swiftmodule") }.map { String($0.dropLast(12)) }.sorted()
        print("Clean build of \(feature.name) alone: \(format(seconds)) s, compiled \(compiled.joined(separator: ", "))")
    }

    private func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
