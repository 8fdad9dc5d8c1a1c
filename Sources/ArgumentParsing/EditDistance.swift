/// Suggestions for mistyped option names.
enum EditDistance {
    /// Optimal string alignment distance: insertions, deletions, substitutions and
    /// swaps of two adjacent characters each cost 1.
    static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, previous2[j - 2] + 1)
                }
                current[j] = best
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }

    /// The candidate closest to `typed`, if it is close enough to be a plausible typo:
    /// at most a third of the typed name (at least 1, at most 3) and less than the whole
    /// name, so `--x` does not suggest `-f`.
    static func closest(to typed: String, among candidates: [String]) -> String? {
        let body = typed.drop { $0 == "-" }
        let limit = max(1, min(3, body.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = between(typed.lowercased(), candidate.lowercased())
            guard distance <= limit, distance < max(body.count, 1) else { continue }
            if best == nil || distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }
}
