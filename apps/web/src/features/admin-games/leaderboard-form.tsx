import { useId } from 'react';

import { type Leaderboard, type LeaderboardFormat } from '@portfolio/types/leaderboards';

import { FormField, FormRow } from '../../ui/form-field';

export const FORMAT_LABELS: Record<LeaderboardFormat, string> = {
  number: 'Number',
  time: 'Time (value in milliseconds)',
  suffix: 'Number with a suffix',
};

const FORMATS = ['number', 'time', 'suffix'] as const;

/** The leaderboard form's values as typed. */
export interface BoardValues {
  board: string;
  name: string;
  order: 'desc' | 'asc';
  format: LeaderboardFormat;
  suffix: string;
  min: string;
  max: string;
}

export const EMPTY_BOARD: BoardValues = {
  board: '',
  name: '',
  order: 'desc',
  format: 'number',
  suffix: '',
  min: '',
  max: '',
};

export const valuesOfBoard = (board: Leaderboard): BoardValues => ({
  board: board.board,
  name: board.name,
  order: board.order,
  format: board.format,
  suffix: board.suffix,
  min: board.min === null ? '' : String(board.min),
  max: board.max === null ? '' : String(board.max),
});

interface BoardFieldsProps {
  values: BoardValues;
  isEditing: boolean;
  change: <K extends keyof BoardValues>(key: K, value: BoardValues[K]) => void;
}

/** The fields of a leaderboard: key, name, which scores are better, how they show, the range. */
export function BoardFields({ values, isEditing, change }: BoardFieldsProps) {
  const field = useId();
  return (
    <>
      <FormRow>
        <FormField
          id={`${field}-key`}
          label="Key"
          value={values.board}
          onValueChange={(value) => change('board', value)}
          readOnly={isEditing}
          required
          maxLength={40}
          hint="What the game passes to GameSDK.submitScore"
        />
        <FormField
          id={`${field}-name`}
          label="Name"
          value={values.name}
          onValueChange={(value) => change('name', value)}
          maxLength={60}
        />
      </FormRow>
      <FormRow>
        <FormField id={`${field}-order`} label="Better scores are">
          {(control) => (
            <select
              {...control}
              value={values.order}
              onChange={(event) => change('order', event.target.value === 'asc' ? 'asc' : 'desc')}
            >
              <option value="desc">Higher</option>
              <option value="asc">Lower</option>
            </select>
          )}
        </FormField>
        <FormField id={`${field}-format`} label="Shown as">
          {(control) => (
            <select
              {...control}
              value={values.format}
              onChange={(event) => {
                const format = FORMATS.find((name) => name === event.target.value);
                if (format) {
                  change('format', format);
                }
              }}
            >
              {FORMATS.map((format) => (
                <option key={format} value={format}>
                  {FORMAT_LABELS[format]}
                </option>
              ))}
            </select>
          )}
        </FormField>
        {values.format === 'suffix' && (
          <FormField
            id={`${field}-suffix`}
            label="Suffix"
            value={values.suffix}
            onValueChange={(value) => change('suffix', value)}
            maxLength={20}
            required
          />
        )}
      </FormRow>
      <FormRow>
        <FormField
          id={`${field}-min`}
          label="Minimum valid score"
          type="number"
          step="any"
          value={values.min}
          onValueChange={(value) => change('min', value)}
        />
        <FormField
          id={`${field}-max`}
          label="Maximum valid score"
          type="number"
          step="any"
          value={values.max}
          onValueChange={(value) => change('max', value)}
        />
      </FormRow>
    </>
  );
}
