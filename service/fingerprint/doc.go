// Package fingerprint turns the text of a news article into a 64-bit simhash
// that moves only a few bits when the article is reposted with light edits.
//
// The pipeline is normalise → segment → weigh → hash each word → fold:
//
//   - Normalise (Normalize, HTMLText): valid UTF-8, Unicode NFKC, lower case,
//     every punctuation mark, symbol and control character a separator. cppjieba
//     drops a whole input at one invalid byte and does not break at ASCII '.',
//     so without this a repost that only swaps '。' for '.' moves many bits.
//   - Match in one script (VersionOneScript, scriptfold.go): default-ignorable
//     code points and the spaces between Han characters are dropped, and
//     Traditional, Taiwan and Hong Kong text folds to Simplified with a table
//     generated from OpenCC's dictionaries, for words, shingles and sentences;
//     the stored text and the content hash stay as sent. Byline and credit
//     lines index no sentence, and a quotation after a colon is a sentence of
//     its own (credits.go).
//   - Segment with gojieba (one *gojieba.Jieba per process, in Dictionary);
//     stop words (jieba's list and an English one), single-rune words and
//     separators do not count.
//   - Weigh each word by TF-IDF with jieba's IDF table; a word the table does
//     not know gets the table's mean IDF, as jieba's own keyword extractor does.
//     The default folds (TF × IDF)³, a title word counting twice: the
//     evaluation found that reposts then keep their bits (weighted.go).
//   - Hash each word with xxhash64: well mixed and stable forever, so a
//     fingerprint stored today still compares with one computed next year.
//   - Fold: per bit, +weight where the word's bit is 1 and −weight where it is
//     0; the fingerprint bit is 1 where the sum is positive.
//
// Two algorithms implement Algorithm. Weighted is the project's default; its
// parameters were chosen by the evaluation in docs/evaluation.md. Yanyiwu is
// bit-for-bit compatible with yanyiwu/simhash (lookup3 word hash, top-N
// keywords by count × IDF) so that a newsroom can bring fingerprints it already
// stores. Every Fingerprint carries the Version of the algorithm that made it:
// fingerprints of different versions are never compared.
//
// The eight block values that index a fingerprint (Blocks) come from two
// families of four 16-bit masks; see masks.go for why both families exist.
package fingerprint
