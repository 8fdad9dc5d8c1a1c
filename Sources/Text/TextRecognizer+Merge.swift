/// Merging the two polarities' readings of a picture (``TextRecognizer/merge(_:_:)``).
extension TextRecognizer {
    /// Two readings of one picture in the two polarities, as one: a picture holds text of
    /// both (a dark label and a light clock), each read well in one of them and as junk or
    /// nothing in the other, and even one line may be read better in parts (the letters
    /// in one, the digits in the other). Word by word: a word of the second that overlaps
    /// none of the first's is added; where words overlap, the second's replaces the
    /// first's when it scores more (``score(_:)``), and its line then joins theirs; a line
    /// of the second that replaced nothing joins a line of the first beside it in its row.
    /// The second's other lines and blocks are numbered after the first's. The lines come
    /// top to bottom (lines side by side left to right), each line's words left to right.
    static func merge(_ first: [TextResult.RawWord], _ second: [TextResult.RawWord]) -> [TextResult.RawWord] {
        typealias Word = TextResult.RawWord
        func overlap(_ a: Word, _ b: Word) -> Bool {
            a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom
        }
        let offset = (first.map { max($0.line, $0.block) }.max() ?? -1) + 1
        var kept = first.map { (word: $0, second: false) }
        // A line of the second reading that replaced words of one of the first's joins it.
        var joins: [Int: (line: Int, block: Int)] = [:]
        for word in second {
            // Only the first's words are rivals: the second's own words do not compete.
            let rivals = kept.indices.filter { !kept[$0].second && overlap(kept[$0].word, word) }
            guard score([word]) > score(rivals.map { kept[$0].word }) else { continue }
            if let rival = rivals.first, joins[word.line] == nil {
                joins[word.line] = (kept[rival].word.line, kept[rival].word.block)
            }
            kept = kept.indices.filter { !rivals.contains($0) }.map { kept[$0] } + [(word, true)]
        }
        var words = kept.map { entry -> Word in
            guard entry.second else { return entry.word }
            var word = entry.word
            (word.line, word.block) = joins[word.line] ?? (word.line + offset, word.block + offset)
            return word
        }
        typealias Box = (left: Int, top: Int, right: Int, bottom: Int)
        // Where a line is: its words of some confidence (junk's boxes can lie far from its line).
        func box(_ group: [Word]) -> Box {
            let sure = group.filter { $0.confidence >= 0.5 }
            let placed = sure.isEmpty ? group : sure
            return (placed.map(\.left).min() ?? 0, placed.map(\.top).min() ?? 0, placed.map(\.right).max() ?? 0,
                    placed.map(\.bottom).max() ?? 0)
        }
        func lines(_ words: [Word]) -> [(line: Int, words: [Word], box: Box)] {
            var order: [Int] = []
            var members: [Int: [Word]] = [:]
            for word in words {
                if members[word.line] == nil { order.append(word.line) }
                members[word.line, default: []].append(word)
            }
            return order.compactMap { line in members[line].map { (line, $0.sorted { $0.left < $1.left }, box($0)) } }
        }
        func middle(_ box: Box) -> Int { (box.top + box.bottom) / 2 }
        // A line of the second that replaced nothing joins a line of the first in its row
        // and next to it (the rest of a line the first read in part).
        let found = lines(words)
        var moves: [Int: (line: Int, block: Int)] = [:]
        for line in found where line.line >= offset {
            let mine = line.box
            let target = found.first { other in
                let theirs = other.box
                return other.line < offset && middle(mine) > theirs.top && middle(mine) < theirs.bottom
                    && middle(theirs) > mine.top && middle(theirs) < mine.bottom
                    && max(theirs.left - mine.right, mine.left - theirs.right) <= mine.bottom - mine.top
            }
            if let target, let head = target.words.first { moves[line.line] = (target.line, head.block) }
        }
        words = words.map { word in
            var moved = word
            if let move = moves[word.line] { (moved.line, moved.block) = move }
            return moved
        }
        // Top to bottom; lines side by side (one's middle within the other's height) left to right.
        var rows: [[(line: Int, words: [Word], box: Box)]] = []
        for line in lines(words).sorted(by: { $0.box.top < $1.box.top }) {
            if let head = rows.last?.first, middle(line.box) < head.box.bottom {
                rows[rows.count - 1].append(line)
            } else {
                rows.append([line])
            }
        }
        return rows.flatMap { $0.sorted { $0.box.left < $1.box.left } }.flatMap(\.words)
    }
}
