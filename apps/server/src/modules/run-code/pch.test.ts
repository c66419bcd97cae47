import { describe, expect, it } from 'vitest';

import { leadingStandardIncludes } from './pch.js';

describe('leadingStandardIncludes', () => {
  it('takes the standard headers a source starts with, past comments and blank lines', () => {
    const source = `// Hello world
/* a block
   comment */

#include <iostream>
#  include <vector>   // containers
#include <bits/stdc++.h>
int main() {}
`;
    expect(leadingStandardIncludes(source)).toEqual(['iostream', 'vector', 'bits/stdc++.h']);
  });

  it('stops at the first line of another kind: macros can change what a header means', () => {
    expect(leadingStandardIncludes('#define NDEBUG\n#include <cassert>\n')).toEqual([]);
    expect(leadingStandardIncludes('#include <string>\n#define X 1\n#include <vector>\n')).toEqual([
      'string',
    ]);
    expect(leadingStandardIncludes('#include <string>\r\nint x;\r\n#include <vector>\r\n')).toEqual(
      ['string'],
    );
  });

  it('never names a header outside the standard list, nor a quoted or continued include', () => {
    expect(leadingStandardIncludes('#include </dev/zero>\n')).toEqual([]);
    expect(leadingStandardIncludes('#include <../../etc/passwd>\n')).toEqual([]);
    expect(leadingStandardIncludes('#include "iostream"\n')).toEqual([]);
    expect(leadingStandardIncludes('#include <sys/socket.h>\n#include <iostream>\n')).toEqual([]);
    expect(leadingStandardIncludes('#include <iostream> \\\n')).toEqual([]);
  });
});
