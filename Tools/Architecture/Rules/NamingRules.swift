/// Per-file naming: observable classes are view models; a file is named after a type it declares.
struct NamingRules {
    func check(_ file: SourceFile) -> [Violation] {
        observables(file) + mainType(file)
    }

    private func observables(_ file: SourceFile) -> [Violation] {
        TypeDeclaration.all(in: file).filter { $0.attributes.contains("Observable") && !$0.name.hasSuffix("ViewModel") }.map {
            file.violation(.viewModelName, at: $0.node, "\($0.name) is @Observable; observable state is a view model's, named …ViewModel")
        }
    }

    private func mainType(_ file: SourceFile) -> [Violation] {
        let visible = TypeDeclaration.topLevel(in: file).filter(\.isVisible)
        guard let first = visible.first else { return [] }
        let names = visible.map(\.name)
        if names.contains(file.typeName) { return [] }
        // A group of one kind, named after the kind in the plural: `Adapters.swift` for `…Adapter`s.
        if file.typeName.hasSuffix("s"), names.allSatisfy({ $0.hasSuffix(file.typeName.dropLast()) }) { return [] }
        let others = names.count > 1 ? " (and \(names.dropFirst().joined(separator: ", ")))" : ""
        return [
            file.violation(
                .fileName, at: first.node,
                "\(file.typeName).swift declares \(first.name)\(others); name the file after its main type, or a group of one kind after the kind in the plural"
            )
        ]
    }
}
