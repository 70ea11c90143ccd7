import Foundation

/// Line coverage per file, read from `llvm-cov export` JSON (what `swift test --enable-code-coverage`
/// leaves at `swift test --show-codecov-path`).
public struct LineCoverage: Sendable {
    /// Covered and coverable lines of one file.
    public struct Count: Sendable, Equatable {
        public var covered: Int
        public var lines: Int

        public init(covered: Int, lines: Int) {
            self.covered = covered
            self.lines = lines
        }

        /// Covered lines as a percentage (100 when there is nothing to cover).
        public var percent: Double { lines == 0 ? 100 : Double(covered) * 100 / Double(lines) }

        static func + (lhs: Self, rhs: Self) -> Self { Count(covered: lhs.covered + rhs.covered, lines: lhs.lines + rhs.lines) }
    }

    /// Per file, by path relative to the package root.
    public let files: [String: Count]

    /// Reads an export of the package at `root`; files outside it are left out.
    public init(json: Data, root: URL) throws {
        let export = try JSONDecoder().decode(Export.self, from: json)
        let prefix = root.standardizedFileURL.path + "/"
        var files: [String: Count] = [:]
        for file in export.data.flatMap(\.files) where file.filename.hasPrefix(prefix) {
            files[String(file.filename.dropFirst(prefix.count))] = Count(covered: file.summary.lines.covered, lines: file.summary.lines.count)
        }
        self.files = files
    }

    /// The total over files whose path starts with `prefix`.
    public func total(under prefix: String) -> Count {
        files.filter { $0.key.hasPrefix(prefix) }.values.reduce(Count(covered: 0, lines: 0), +)
    }

    private struct Export: Decodable {
        let data: [Unit]
        struct Unit: Decodable { let files: [File] }
        struct File: Decodable {
            let filename: String
            let summary: Summary
        }
        struct Summary: Decodable { let lines: Lines }
        struct Lines: Decodable {
            let count: Int
            let covered: Int
        }
    }
}
