/// Per-file naming: observable classes are view models; one main type per file, named after it.
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
        if names.count > 1 {
            return [file.violation(.fileName, at: visible[1].node,
                                   "\(file.typeName).swift declares \(names.joined(separator: ", ")); one main type per file (helpers private)")]
        }
        guard first.name == file.typeName else {
            return [file.violation(.fileName, at: first.node, "\(first.name) is declared in \(file.typeName).swift; name the file \(first.name).swift")]
        }
        return []
    }
}
