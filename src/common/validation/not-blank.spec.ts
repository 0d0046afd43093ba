import { validateSync } from 'class-validator';
import { NotBlank } from './not-blank';

class Named {
  @NotBlank() name: unknown;
}

const errorsFor = (name: unknown) => validateSync(Object.assign(new Named(), { name })).map((e) => e.constraints);

describe('NotBlank', () => {
  it.each([' ', '\t\n', '\u00a0'])('refuses %j with "must not be blank"', (name) => {
    expect(errorsFor(name)).toEqual([{ matches: 'must not be blank' }]);
  });

  it.each(['a', ' x ', '0'])('takes %j', (name) => {
    expect(errorsFor(name)).toEqual([]);
  });
});
