import { configure } from '@testing-library/react';

// Card bodies and an approval's answers load lazily (a dynamic import). On a loaded machine the first one can take longer than
// testing-library's 1 s default for findBy/waitFor; this is a guard against hangs, not a speed limit.
configure({ asyncUtilTimeout: 15_000 });
