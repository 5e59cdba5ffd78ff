// fit.cpp: fits a substitute evaluation file (eval.egev2) for Egaroucid 7.9.0.
//
// A measuring instrument only (see README.md): Egaroucid's trained evaluation is not in its
// public source, so to time Egaroucid's endgame search against Wedge's we give it an
// evaluation of its own format, fitted here on the WTHOR games. Nothing in Wedge (product or
// tests) uses this program or its output.
//
// This file is our own code. It includes no Egaroucid file. At run time it reads three of
// Egaroucid's source files from the checkout given with --egaroucid, as text, to take the
// facts its format depends on (the pattern cells, the mirror permutations, the sizes and
// constants) instead of writing them down here, and it stops if they are not what this
// program assumes:
//   src/tools/evaluation/evaluation_definition_20241125_1_7_5.hpp (the training definition)
//   src/engine/evaluate_simd.hpp   (the engine's pattern table, which must equal the above)
//   src/engine/evaluate_common.hpp (phases, units, disc-count size, run-length marker)
//
// The evaluation Egaroucid 7.9.0 computes (AVX2 build, evaluate_simd.hpp), as this program
// reproduces it:
//   * phase = (number of discs on the board) - 4, 0..59 (60 phases, one per disc);
//   * 16 patterns of 4 instances each (64 instances); an instance's index is a base-3 number
//     over its cells in the listed order, the first cell the most significant digit; the digit
//     is 0 for a disc of the side to move, 1 for the opponent's, 2 for an empty square;
//   * score = sum over the 64 instances of W[phase][pattern][index]
//           + D[phase][number of discs of the side to move], in units of 1/32 disc;
//     the engine then rounds half away from zero to whole discs (add +-16, divide by 32
//     truncating) and clamps to [-64, 64];
//   * each stored weight is clamped by the loader to [-4092, 4092] (we clamp before writing);
//   * the file: an int32 count n, then n int16 codes; a code c >= 4096 stands for c - 4096
//     zeros, any other code for itself. Decoded, the stream is, for phase 0..59, the 612,360
//     pattern weights (pattern 0's 3^8 weights by index, then pattern 1's 3^9, ... pattern
//     15's 3^10) followed by the 65 disc-count weights (0..64 discs).
//
// The fit (README.md has the reasons):
//   * data: WTHOR games, files WTH_<first>.wtb .. WTH_<last>.wtb (default 1977-2016), every
//     position before a move of the record, from the side to move's point of view; a game
//     whose record holds an illegal move is cut there. Games are numbered over all files in
//     year order from 0; every game whose number is a multiple of 20 is held out;
//   * label, in discs for the side to move: the theoretical final disc difference
//     (2 * t - 64 for black, t = byte 7 of the record, black's discs under perfect play) at 24
//     empties or more; below, e/24 of it plus (1 - e/24) of the real final difference
//     (2 * r - 64, r = byte 6), e = empties;
//   * per phase p: ridge regression (lambda 100, labels in discs) over the training
//     positions of phases p-4 .. p+4, solved by conjugate gradient on the normal equations
//     from zero, at most 40 iterations; after each iteration the mean squared error on the
//     held-out positions of phase p is measured and the best iterate kept; it stops after 3
//     iterations without improvement;
//   * a pattern state and its mirror image (the permutation the definition lists for each
//     pattern) are one parameter, written to both places; the 65 disc-count weights are
//     parameters too;
//   * weights are multiplied by 32, rounded half away from zero and clamped to [-4092, 4092].
//
// Single-threaded and deterministic: the same inputs give the same bytes.
//
// Build:  g++ -O2 -std=c++17 -o fit fit.cpp
// Run:    ./fit --egaroucid DIR --wthor DIR --out FILE [--first 1977] [--last 2016]
//               [--check FILE] [--check-per-phase 10]
// --check writes held-out positions with this program's prediction from the written
// (quantised) weights, one a line: 64 squares a1..h8 (X black, O white, - empty), a space, the
// side to move (X or O), a space, the score in discs, a space, the raw sum in 1/32 discs.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>
#include <sys/resource.h>
#include <sys/time.h>

namespace {

// ---------------------------------------------------------------------------------------
// What this program assumes of the format; each is checked against the source text.
constexpr int kPatterns = 16;
constexpr int kInstances = 64;        // 4 per pattern
constexpr int kPhases = 60;
constexpr int kStep = 32;             // units per disc
constexpr int kCountWeights = 65;     // disc counts 0..64
constexpr int kPatternParams = 612360;
constexpr int kPhaseParams = kPatternParams + kCountWeights;
constexpr int kMaxWeight = 4092;      // the loader clamps to +-this
constexpr int kZeroRun = 4096;        // codes >= this are runs of zeros
constexpr int kWindow = 4;            // neighbouring phases on each side
constexpr double kLambda = 100.0;
constexpr int kMaxIterations = 40;
constexpr int kPatience = 3;
constexpr int kHoldEvery = 20;
constexpr int kBlendEmpties = 24;

[[noreturn]] void die(const std::string &msg) {
    std::cerr << "fit: " << msg << std::endl;
    std::exit(1);
}

double now_seconds() {
    timeval tv;
    gettimeofday(&tv, nullptr);
    return tv.tv_sec + tv.tv_usec * 1e-6;
}

// ---------------------------------------------------------------------------------------
// Reading Egaroucid's source text.

std::string read_text(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) die("cannot read " + path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Removes // and /* */ comments (the tables carry comments with digits in them).
std::string strip_comments(const std::string &s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        if (s.compare(i, 2, "//") == 0) {
            while (i < s.size() && s[i] != '\n') ++i;
        } else if (s.compare(i, 2, "/*") == 0) {
            size_t e = s.find("*/", i + 2);
            i = (e == std::string::npos) ? s.size() : e + 2;
        } else {
            out += s[i++];
        }
    }
    return out;
}

// The initialiser of the array declared with `name[`: the text between the '{' after '='
// and its matching '}'.
std::string array_body(const std::string &text, const std::string &name) {
    size_t at = text.find(name + "[");
    if (at == std::string::npos) die("array " + name + " not found");
    size_t eq = text.find('=', at);
    size_t open = text.find('{', eq);
    if (eq == std::string::npos || open == std::string::npos) die("array " + name + " has no initialiser");
    int depth = 0;
    for (size_t i = open; i < text.size(); ++i) {
        if (text[i] == '{') ++depth;
        if (text[i] == '}' && --depth == 0) return text.substr(open + 1, i - open - 1);
    }
    die("array " + name + " not closed");
}

// The value of `constexpr int NAME = <int>;` or `... = <a> << <b>;`.
long constant(const std::string &text, const std::string &name) {
    std::regex re("constexpr\\s+int\\s+" + name + "\\s*=\\s*([0-9]+)\\s*(<<\\s*([0-9]+))?\\s*;");
    std::smatch m;
    if (!std::regex_search(text, m, re)) die("constant " + name + " not found");
    long v = std::stol(m[1].str());
    if (m[3].matched) v <<= std::stol(m[3].str());
    return v;
}

// Square from a name like COORD_C7: our own numbering, sq = 8 * (rank - 1) + file, a1 = 0.
int square_of(const std::string &coord) {
    if (coord.size() != 8 || coord.compare(0, 6, "COORD_") != 0) die("bad square name " + coord);
    int file = coord[6] - 'A', rank = coord[7] - '1';
    if (file < 0 || file > 7 || rank < 0 || rank > 7) die("bad square name " + coord);
    return rank * 8 + file;
}

struct Instance {
    int n = 0;
    int cells[10] = {};
};

// Parses a table of entries `{n, {COORD_.., ..., COORD_NO}}`.
std::vector<Instance> parse_instances(const std::string &body) {
    std::vector<Instance> out;
    std::regex entry("\\{\\s*([0-9]+)\\s*,\\s*\\{([^}]*)\\}\\s*\\}");
    for (auto it = std::sregex_iterator(body.begin(), body.end(), entry); it != std::sregex_iterator(); ++it) {
        Instance ins;
        ins.n = std::stoi((*it)[1].str());
        std::string cells = (*it)[2].str();
        std::regex coord("COORD_[A-Z0-9]+");
        int k = 0;
        for (auto c = std::sregex_iterator(cells.begin(), cells.end(), coord); c != std::sregex_iterator(); ++c) {
            std::string name = c->str();
            if (name == "COORD_NO") continue;
            if (k >= 10) die("too many cells in an instance");
            ins.cells[k++] = square_of(name);
        }
        if (k != ins.n) die("instance cell count differs from its n");
        out.push_back(ins);
    }
    return out;
}

std::vector<std::vector<int>> parse_int_lists(const std::string &body) {
    std::vector<std::vector<int>> out;
    std::regex list("\\{([-0-9,\\s]*)\\}");
    for (auto it = std::sregex_iterator(body.begin(), body.end(), list); it != std::sregex_iterator(); ++it) {
        std::vector<int> v;
        std::stringstream ss((*it)[1].str());
        std::string tok;
        while (std::getline(ss, tok, ',')) {
            if (tok.find_first_not_of(" \t\r\n") == std::string::npos) continue;
            v.push_back(std::stoi(tok));
        }
        out.push_back(v);
    }
    return out;
}

std::vector<int> parse_ints(const std::string &body) {
    std::vector<int> v;
    std::stringstream ss(body);
    std::string tok;
    while (std::getline(ss, tok, ',')) {
        if (tok.find_first_not_of(" \t\r\n") == std::string::npos) continue;
        v.push_back(std::stoi(tok));
    }
    return v;
}

// The 8 symmetries of the board, as maps of our square numbering.
int symmetry(int s, int sq) {
    int r = sq / 8, f = sq % 8;
    if (s & 1) f = 7 - f;
    if (s & 2) r = 7 - r;
    if (s & 4) std::swap(r, f);
    return r * 8 + f;
}

struct Definition {
    Instance inst[kInstances];
    int n_cells[kPatterns];
    int mirror_perm[kPatterns][10];
    int size[kPatterns];     // 3^n_cells
    int offset[kPatterns];   // start of the pattern's block within a phase
};

Definition load_definition(const std::string &dir) {
    Definition d;
    const std::string def_path = dir + "/src/tools/evaluation/evaluation_definition_20241125_1_7_5.hpp";
    const std::string simd_path = dir + "/src/engine/evaluate_simd.hpp";
    const std::string common_path = dir + "/src/engine/evaluate_common.hpp";
    std::string def = strip_comments(read_text(def_path));
    std::string simd = strip_comments(read_text(simd_path));
    std::string common = strip_comments(read_text(common_path));

    std::vector<Instance> train = parse_instances(array_body(def, "adj_feature_to_coord"));
    std::vector<Instance> engine = parse_instances(array_body(simd, "feature_to_coord"));
    if (train.size() != kInstances || engine.size() != kInstances) die("expected 64 pattern instances in both tables");
    for (int i = 0; i < kInstances; ++i) {
        if (train[i].n != engine[i].n || !std::equal(train[i].cells, train[i].cells + train[i].n, engine[i].cells))
            die("the engine's pattern table differs from the definition at instance " + std::to_string(i));
        d.inst[i] = engine[i];
    }
    std::vector<int> n_cells = parse_ints(array_body(def, "adj_pattern_n_cells"));
    std::vector<std::vector<int>> perms = parse_int_lists(array_body(def, "adj_rev_patterns"));
    if (n_cells.size() != kPatterns || perms.size() != kPatterns) die("expected 16 patterns");

    int offset = 0;
    for (int p = 0; p < kPatterns; ++p) {
        d.n_cells[p] = n_cells[p];
        if ((int)perms[p].size() != n_cells[p]) die("mirror permutation size differs from the pattern's");
        for (int j = 0; j < 4; ++j)
            if (d.inst[4 * p + j].n != n_cells[p]) die("instance size differs from its pattern's");
        std::vector<bool> seen(n_cells[p], false);
        for (int k = 0; k < n_cells[p]; ++k) {
            int v = perms[p][k];
            if (v < 0 || v >= n_cells[p] || seen[v]) die("mirror permutation is not a permutation");
            seen[v] = true;
            d.mirror_perm[p][k] = v;
        }
        // The permutation must be a board mirror of the pattern's cells, and the other three
        // instances images of the first, cell by cell.
        const Instance &first = d.inst[4 * p];
        bool mirror_ok = false;
        for (int s = 1; s < 8 && !mirror_ok; ++s) {
            bool ok = true;
            for (int k = 0; k < first.n; ++k)
                ok = ok && symmetry(s, first.cells[k]) == first.cells[d.mirror_perm[p][k]];
            mirror_ok = ok;
        }
        if (!mirror_ok) die("pattern " + std::to_string(p) + ": the mirror permutation is no board symmetry");
        for (int j = 1; j < 4; ++j) {
            bool found = false;
            for (int s = 0; s < 8 && !found; ++s) {
                bool ok = true;
                for (int k = 0; k < first.n; ++k) ok = ok && symmetry(s, first.cells[k]) == d.inst[4 * p + j].cells[k];
                found = ok;
            }
            if (!found) die("pattern " + std::to_string(p) + ": an instance is no image of the first");
        }
        d.size[p] = 1;
        for (int k = 0; k < n_cells[p]; ++k) d.size[p] *= 3;
        d.offset[p] = offset;
        offset += d.size[p];
    }
    if (offset != kPatternParams) die("pattern sizes do not sum to 612360");
    if (constant(simd, "N_PATTERN_PARAMS_RAW") != kPatternParams) die("N_PATTERN_PARAMS_RAW changed");
    if (constant(simd, "SIMD_EVAL_MAX_VALUE") != kMaxWeight) die("SIMD_EVAL_MAX_VALUE changed");
    if (constant(common, "N_PHASES") != kPhases) die("N_PHASES changed");
    if (constant(common, "PHASE_N_DISCS") != 1) die("PHASE_N_DISCS changed");
    if (constant(common, "STEP") != kStep) die("STEP changed");
    if (constant(common, "MAX_STONE_NUM") != kCountWeights) die("MAX_STONE_NUM changed");
    if (constant(common, "N_ZEROS_PLUS") != kZeroRun) die("N_ZEROS_PLUS changed");
    return d;
}

// ---------------------------------------------------------------------------------------
// Board: our own bitboards, bit sq = 8 * (rank - 1) + file, a1 = bit 0, h8 = bit 63.

constexpr uint64_t kFileA = 0x0101010101010101ULL;
constexpr uint64_t kFileH = 0x8080808080808080ULL;

inline uint64_t shift_dir(uint64_t b, int dir) {
    switch (dir) {
        case 0: return (b << 1) & ~kFileA;  // east
        case 1: return (b >> 1) & ~kFileH;  // west
        case 2: return b << 8;              // north
        case 3: return b >> 8;              // south
        case 4: return (b << 9) & ~kFileA;  // north-east
        case 5: return (b << 7) & ~kFileH;  // north-west
        case 6: return (b >> 7) & ~kFileA;  // south-east
        default: return (b >> 9) & ~kFileH; // south-west
    }
}

uint64_t legal_moves(uint64_t me, uint64_t opp) {
    uint64_t empty = ~(me | opp), moves = 0;
    for (int dir = 0; dir < 8; ++dir) {
        uint64_t x = shift_dir(me, dir) & opp;
        for (int i = 0; i < 5; ++i) x |= shift_dir(x, dir) & opp;
        moves |= shift_dir(x, dir) & empty;
    }
    return moves;
}

uint64_t flips(uint64_t me, uint64_t opp, int sq) {
    uint64_t all = 0, start = 1ULL << sq;
    for (int dir = 0; dir < 8; ++dir) {
        uint64_t line = 0, x = shift_dir(start, dir);
        while (x & opp) {
            line |= x;
            x = shift_dir(x, dir);
        }
        if (x & me) all |= line;
    }
    return all;
}

// ---------------------------------------------------------------------------------------
// Features.

struct Features {
    const Definition *def;
    std::vector<uint16_t> canonical[kPatterns]; // index -> min(index, mirrored index)
    int pow3[11];

    explicit Features(const Definition &d) : def(&d) {
        pow3[0] = 1;
        for (int i = 1; i <= 10; ++i) pow3[i] = pow3[i - 1] * 3;
        for (int p = 0; p < kPatterns; ++p) {
            int n = d.n_cells[p];
            canonical[p].resize(d.size[p]);
            for (int idx = 0; idx < d.size[p]; ++idx) {
                // Mirrored state: its k-th cell (most significant first) holds the digit of
                // cell mirror_perm[k] of this state.
                int m = 0;
                for (int k = 0; k < n; ++k) {
                    int digit = idx / pow3[n - 1 - d.mirror_perm[p][k]] % 3;
                    m += digit * pow3[n - 1 - k];
                }
                canonical[p][idx] = (uint16_t)std::min(idx, m);
            }
            for (int idx = 0; idx < d.size[p]; ++idx) // a mirror applied twice is the identity
                if (canonical[p][canonical[p][idx]] != canonical[p][idx]) die("mirror is not an involution");
        }
    }

    // Raw (uncanonicalised) index of instance i: digits 0 own disc, 1 opponent's, 2 empty.
    int raw_index(uint64_t me, uint64_t opp, int i) const {
        const Instance &ins = def->inst[i];
        int idx = 0;
        for (int k = 0; k < ins.n; ++k) {
            uint64_t bit = 1ULL << ins.cells[k];
            idx = idx * 3 + ((me & bit) ? 0 : (opp & bit) ? 1 : 2);
        }
        return idx;
    }
};

// ---------------------------------------------------------------------------------------
// Samples.

struct Sample {
    uint16_t idx[kInstances]; // canonical index within the instance's pattern block
    float label;              // discs, side to move
    uint8_t count;            // discs of the side to move
    uint8_t phase;
};

struct HeldBoard {
    uint64_t me, opp;
    bool black_to_move;
};

struct Data {
    std::vector<Sample> train, held;     // each sorted by phase (stable)
    std::vector<HeldBoard> held_boards;  // parallel to held
    size_t train_start[kPhases + 1] = {}, held_start[kPhases + 1] = {};
    long games = 0, games_held = 0, games_cut = 0;
};

struct GameRecord {
    int real_black, theo_black;
    uint8_t moves[60];
};

std::vector<GameRecord> read_wthor(const std::string &dir, int first, int last) {
    std::vector<GameRecord> games;
    for (int year = first; year <= last; ++year) {
        std::string path = dir + "/WTH_" + std::to_string(year) + ".wtb";
        std::string bytes = read_text(path);
        if (bytes.size() < 16 || (bytes.size() - 16) % 68 != 0) die(path + ": size is not 16 + 68 k");
        const unsigned char *b = (const unsigned char *)bytes.data();
        uint32_t declared = b[4] | b[5] << 8 | b[6] << 16 | (uint32_t)b[7] << 24;
        size_t n = (bytes.size() - 16) / 68;
        if (declared != n) die(path + ": header game count differs from the file size");
        if (b[12] != 0 && b[12] != 8) die(path + ": not an 8x8 board file");
        for (size_t g = 0; g < n; ++g) {
            const unsigned char *r = b + 16 + 68 * g;
            GameRecord rec;
            rec.real_black = r[6];
            rec.theo_black = r[7];
            std::memcpy(rec.moves, r + 8, 60);
            games.push_back(rec);
        }
    }
    return games;
}

// Replays one game; calls visit(me, opp, black_to_move) before each move played.
// Returns false if the record holds an illegal move (the game is cut there).
template <class Visit>
bool replay(const GameRecord &g, Visit visit) {
    uint64_t black = (1ULL << 28) | (1ULL << 35);  // e4 d5
    uint64_t white = (1ULL << 27) | (1ULL << 36);  // d4 e5
    bool black_to_move = true;
    for (int i = 0; i < 60; ++i) {
        int m = g.moves[i];
        if (m == 0) break;
        int row = m / 10 - 1, col = m % 10 - 1;  // 10 * row + column, a1 = 11
        if (row < 0 || row > 7 || col < 0 || col > 7) return false;
        int sq = row * 8 + col;
        uint64_t me = black_to_move ? black : white, opp = black_to_move ? white : black;
        if (legal_moves(me, opp) == 0) {  // the side to move passes
            black_to_move = !black_to_move;
            std::swap(me, opp);
        }
        if (!((legal_moves(me, opp) >> sq) & 1)) return false;
        visit(me, opp, black_to_move);
        uint64_t f = flips(me, opp, sq);
        me |= f | (1ULL << sq);
        opp &= ~f;
        if (black_to_move) { black = me; white = opp; } else { white = me; black = opp; }
        black_to_move = !black_to_move;
    }
    return true;
}

float label_for(const GameRecord &g, uint64_t me, uint64_t opp, bool black_to_move) {
    int empties = 64 - __builtin_popcountll(me | opp);
    double theo = 2.0 * g.theo_black - 64.0, real = 2.0 * g.real_black - 64.0;
    double y = theo;
    if (empties < kBlendEmpties) {
        double w = (double)empties / kBlendEmpties;
        y = w * theo + (1.0 - w) * real;
    }
    return (float)(black_to_move ? y : -y);
}

Data build_data(const std::vector<GameRecord> &games, const Features &feat) {
    Data d;
    d.games = (long)games.size();
    // Pass 1: count positions per phase.
    size_t train_count[kPhases] = {}, held_count[kPhases] = {};
    for (size_t gi = 0; gi < games.size(); ++gi) {
        bool held = gi % kHoldEvery == 0;
        d.games_held += held;
        bool whole = replay(games[gi], [&](uint64_t me, uint64_t opp, bool) {
            int phase = __builtin_popcountll(me | opp) - 4;
            (held ? held_count : train_count)[phase]++;
        });
        d.games_cut += !whole;
    }
    for (int p = 0; p < kPhases; ++p) {
        d.train_start[p + 1] = d.train_start[p] + train_count[p];
        d.held_start[p + 1] = d.held_start[p] + held_count[p];
    }
    d.train.resize(d.train_start[kPhases]);
    d.held.resize(d.held_start[kPhases]);
    d.held_boards.resize(d.held_start[kPhases]);
    // Pass 2: fill, in game order within each phase.
    size_t train_fill[kPhases], held_fill[kPhases];
    for (int p = 0; p < kPhases; ++p) { train_fill[p] = d.train_start[p]; held_fill[p] = d.held_start[p]; }
    for (size_t gi = 0; gi < games.size(); ++gi) {
        bool held = gi % kHoldEvery == 0;
        replay(games[gi], [&](uint64_t me, uint64_t opp, bool black_to_move) {
            int phase = __builtin_popcountll(me | opp) - 4;
            size_t at = held ? held_fill[phase]++ : train_fill[phase]++;
            Sample &s = held ? d.held[at] : d.train[at];
            for (int i = 0; i < kInstances; ++i)
                s.idx[i] = feat.canonical[i / 4][feat.raw_index(me, opp, i)];
            s.label = label_for(games[gi], me, opp, black_to_move);
            s.count = (uint8_t)__builtin_popcountll(me);
            s.phase = (uint8_t)phase;
            if (held) d.held_boards[at] = HeldBoard{me, opp, black_to_move};
        });
    }
    return d;
}

// ---------------------------------------------------------------------------------------
// The fit of one phase: ridge regression by conjugate gradient on
//   (A^T A + lambda I) x = A^T y,
// A the 0/1 design matrix of the window's training positions (a row has 64 pattern ones,
// instances in the same shared state adding up, and one disc-count one).

struct Fitter {
    const Definition &def;
    int offset[kInstances];  // parameter offset of each instance's pattern
    explicit Fitter(const Definition &d) : def(d) {
        for (int i = 0; i < kInstances; ++i) offset[i] = d.offset[i / 4];
    }

    double row_dot(const Sample &s, const double *v) const {
        double a = v[kPatternParams + s.count];
        for (int i = 0; i < kInstances; ++i) a += v[offset[i] + s.idx[i]];
        return a;
    }
    void row_add(const Sample &s, double a, double *v) const {
        v[kPatternParams + s.count] += a;
        for (int i = 0; i < kInstances; ++i) v[offset[i] + s.idx[i]] += a;
    }

    double held_mse(const Sample *b, const Sample *e, const double *x) const {
        double sum = 0;
        for (const Sample *s = b; s != e; ++s) {
            double r = row_dot(*s, x) - s->label;
            sum += r * r;
        }
        return e == b ? 0 : sum / (double)(e - b);
    }

    struct Result { int iterations, best_iteration; double held_rmse, held_rmse_zero, train_rmse; };

    Result fit(const Sample *tb, const Sample *te, const Sample *hb, const Sample *he, std::vector<double> &best) const {
        const size_t n = kPhaseParams;
        std::vector<double> x(n, 0.0), r(n, 0.0), p(n), q(n);
        for (const Sample *s = tb; s != te; ++s) row_add(*s, s->label, r.data());  // r = A^T y
        p = r;
        double rr = 0;
        for (size_t i = 0; i < n; ++i) rr += r[i] * r[i];
        best.assign(n, 0.0);
        double best_err = held_mse(hb, he, x.data()), zero_err = best_err;
        int best_it = 0, it = 0, since = 0;
        bool have_held = he != hb;
        while (it < kMaxIterations && rr > 0) {
            ++it;
            std::fill(q.begin(), q.end(), 0.0);
            for (const Sample *s = tb; s != te; ++s) row_add(*s, row_dot(*s, p.data()), q.data());
            double pq = 0;
            for (size_t i = 0; i < n; ++i) { q[i] += kLambda * p[i]; pq += p[i] * q[i]; }
            double alpha = rr / pq, rr_new = 0;
            for (size_t i = 0; i < n; ++i) {
                x[i] += alpha * p[i];
                r[i] -= alpha * q[i];
                rr_new += r[i] * r[i];
            }
            double err = have_held ? held_mse(hb, he, x.data()) : 0;
            if (!have_held || err < best_err) {
                best_err = err;
                best = x;
                best_it = it;
                since = 0;
            } else if (++since >= kPatience) {
                break;
            }
            double beta = rr_new / rr;
            rr = rr_new;
            for (size_t i = 0; i < n; ++i) p[i] = r[i] + beta * p[i];
        }
        double train_sum = 0;
        for (const Sample *s = tb; s != te; ++s) {
            double e = row_dot(*s, best.data()) - s->label;
            train_sum += e * e;
        }
        return {it, best_it, std::sqrt(best_err), std::sqrt(zero_err), std::sqrt(train_sum / std::max<double>(1, (double)(te - tb)))};
    }
};

// ---------------------------------------------------------------------------------------
// Quantisation, the file, and the check.

int16_t quantise(double discs) {
    double u = discs * kStep;
    long v = std::lround(u);  // half away from zero
    return (int16_t)std::max<long>(-kMaxWeight, std::min<long>(kMaxWeight, v));
}

std::vector<int16_t> run_length_code(const std::vector<int16_t> &plain) {
    std::vector<int16_t> out;
    const int max_run = 32767 - kZeroRun;
    for (size_t i = 0; i < plain.size();) {
        if (plain[i] != 0) {
            if (plain[i] >= kZeroRun) die("a weight collides with the zero-run codes");
            out.push_back(plain[i++]);
            continue;
        }
        size_t j = i;
        while (j < plain.size() && plain[j] == 0 && (int)(j - i) < max_run) ++j;
        out.push_back((int16_t)(kZeroRun + (int)(j - i)));
        i = j;
    }
    return out;
}

std::vector<int16_t> decode(const std::vector<int16_t> &codes) {
    std::vector<int16_t> out;
    for (int16_t c : codes) {
        if (c >= kZeroRun) out.insert(out.end(), c - kZeroRun, 0);
        else out.push_back(c);
    }
    return out;
}

void write_file(const std::string &path, const std::vector<int16_t> &codes) {
    FILE *f = std::fopen(path.c_str(), "wb");
    if (!f) die("cannot write " + path);
    int32_t n = (int32_t)codes.size();
    // Little-endian int32 then int16s, as the engine reads them with fread on x86.
    unsigned char hdr[4] = {(unsigned char)n, (unsigned char)(n >> 8), (unsigned char)(n >> 16), (unsigned char)(n >> 24)};
    std::fwrite(hdr, 1, 4, f);
    std::vector<unsigned char> body(codes.size() * 2);
    for (size_t i = 0; i < codes.size(); ++i) {
        uint16_t u = (uint16_t)codes[i];
        body[2 * i] = (unsigned char)u;
        body[2 * i + 1] = (unsigned char)(u >> 8);
    }
    std::fwrite(body.data(), 1, body.size(), f);
    if (std::fclose(f) != 0) die("write failed: " + path);
}

std::vector<int16_t> read_codes(const std::string &path) {
    std::string bytes = read_text(path);
    if (bytes.size() < 4) die("file too short: " + path);
    const unsigned char *b = (const unsigned char *)bytes.data();
    int32_t n = (int32_t)(b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24);
    if (bytes.size() != 4 + 2 * (size_t)n) die("file length differs from its count: " + path);
    std::vector<int16_t> codes(n);
    for (int32_t i = 0; i < n; ++i) codes[i] = (int16_t)(uint16_t)(b[4 + 2 * i] | b[5 + 2 * i] << 8);
    return codes;
}

// The engine's score from the written weights: raw sum, then rounded to discs and clamped.
int engine_score(long raw) {
    long v = raw + (raw >= 0 ? kStep / 2 : -kStep / 2);
    v /= kStep;  // truncates toward zero, as C++ does
    return (int)std::max<long>(-64, std::min<long>(64, v));
}

std::string board_text(const HeldBoard &h) {
    uint64_t black = h.black_to_move ? h.me : h.opp, white = h.black_to_move ? h.opp : h.me;
    std::string s;
    for (int sq = 0; sq < 64; ++sq) s += (black >> sq & 1) ? 'X' : (white >> sq & 1) ? 'O' : '-';
    s += h.black_to_move ? " X" : " O";
    return s;
}

void usage() {
    std::cerr << "usage: fit --egaroucid DIR --wthor DIR --out FILE [--first 1977] [--last 2016]\n"
                 "           [--check FILE] [--check-per-phase 10]\n";
    std::exit(2);
}

}  // namespace

int main(int argc, char **argv) {
    std::string egaroucid, wthor, out, check;
    int first = 1977, last = 2016, check_per_phase = 10;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> std::string { if (i + 1 >= argc) usage(); return argv[++i]; };
        if (a == "--egaroucid") egaroucid = next();
        else if (a == "--wthor") wthor = next();
        else if (a == "--out") out = next();
        else if (a == "--first") first = std::stoi(next());
        else if (a == "--last") last = std::stoi(next());
        else if (a == "--check") check = next();
        else if (a == "--check-per-phase") check_per_phase = std::stoi(next());
        else usage();
    }
    if (egaroucid.empty() || wthor.empty() || out.empty()) usage();
    double t0 = now_seconds();

    Definition def = load_definition(egaroucid);
    Features feat(def);
    std::cerr << "definition read from " << egaroucid << ": 16 patterns, 64 instances, "
              << kPatternParams << " pattern weights a phase" << std::endl;

    std::vector<GameRecord> games = read_wthor(wthor, first, last);
    Data data = build_data(games, feat);
    games.clear();
    games.shrink_to_fit();
    std::cerr << "games " << data.games << " (held out " << data.games_held << ", cut at an illegal move "
              << data.games_cut << "), positions " << data.train.size() + data.held.size() << " (train "
              << data.train.size() << ", held out " << data.held.size() << "), "
              << now_seconds() - t0 << " s" << std::endl;

    Fitter fitter(def);
    std::vector<int16_t> plain((size_t)kPhases * kPhaseParams, 0);
    std::vector<double> best;
    long clamped = 0;
    for (int phase = 0; phase < kPhases; ++phase) {
        int lo = std::max(0, phase - kWindow), hi = std::min(kPhases - 1, phase + kWindow);
        const Sample *tb = data.train.data() + data.train_start[lo], *te = data.train.data() + data.train_start[hi + 1];
        const Sample *hb = data.held.data() + data.held_start[phase], *he = data.held.data() + data.held_start[phase + 1];
        Fitter::Result res = fitter.fit(tb, te, hb, he, best);
        int16_t *w = plain.data() + (size_t)phase * kPhaseParams;
        for (int p = 0; p < kPatterns; ++p) {
            for (int idx = 0; idx < def.size[p]; ++idx) {
                double v = best[def.offset[p] + feat.canonical[p][idx]];
                int16_t q = quantise(v);
                clamped += std::fabs(v * kStep) > kMaxWeight + 0.5;
                w[def.offset[p] + idx] = q;
            }
        }
        for (int c = 0; c < kCountWeights; ++c) {
            double v = best[kPatternParams + c];
            clamped += std::fabs(v * kStep) > kMaxWeight + 0.5;
            w[kPatternParams + c] = quantise(v);
        }
        std::fprintf(stderr, "phase %2d  window %2d-%2d  train %8zu  held %6zu  iterations %2d  best %2d  "
                     "held rmse %.3f (zero weights %.3f)  train rmse %.3f  %.0f s\n",
                     phase, lo, hi, (size_t)(te - tb), (size_t)(he - hb), res.iterations, res.best_iteration,
                     res.held_rmse, res.held_rmse_zero, res.train_rmse, now_seconds() - t0);
    }

    std::vector<int16_t> codes = run_length_code(plain);
    write_file(out, codes);
    if (decode(read_codes(out)) != plain) die("the written file does not decode to the weights");
    std::cerr << "wrote " << out << ": " << codes.size() << " codes, " << plain.size()
              << " weights, " << clamped << " clamped to +-" << kMaxWeight << std::endl;

    // Held-out check: the mean absolute error of the quantised evaluation, and the check file.
    std::ofstream chk;
    if (!check.empty()) {
        chk.open(check);
        if (!chk) die("cannot write " + check);
    }
    double abs_sum = 0;
    size_t written = 0;
    for (int phase = 0; phase < kPhases; ++phase) {
        size_t b = data.held_start[phase], e = data.held_start[phase + 1];
        const int16_t *w = plain.data() + (size_t)phase * kPhaseParams;
        for (size_t i = b; i < e; ++i) {
            const HeldBoard &h = data.held_boards[i];
            long raw = w[kPatternParams + __builtin_popcountll(h.me)];
            for (int k = 0; k < kInstances; ++k)
                raw += w[def.offset[k / 4] + feat.raw_index(h.me, h.opp, k)];  // raw, not canonical: the file as written
            int score = engine_score(raw);
            abs_sum += std::fabs(score - data.held[i].label);
            size_t n = e - b, per = (size_t)std::max(1, check_per_phase);
            if (chk.is_open() && n > 0 && (i - b) % std::max<size_t>(1, n / per) == 0 && (i - b) / std::max<size_t>(1, n / per) < per) {
                chk << board_text(h) << ' ' << score << ' ' << raw << '\n';
                ++written;
            }
        }
    }
    std::cerr << "held-out mean absolute error of the written evaluation: "
              << abs_sum / std::max<size_t>(1, data.held.size()) << " discs" << std::endl;
    if (chk.is_open()) std::cerr << "wrote " << written << " check positions to " << check << std::endl;

    rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    std::cerr << "done in " << now_seconds() - t0 << " s, peak memory " << ru.ru_maxrss / 1024 << " MiB" << std::endl;
    return 0;
}
