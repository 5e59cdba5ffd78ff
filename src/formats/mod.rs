//! Game and position notations: OBF lines, board strings, move transcripts, GGF, WTHOR.
