"""How rankflavor's inputs map onto other tools' inputs (see `arrays`), for users and for the conformance tests."""
