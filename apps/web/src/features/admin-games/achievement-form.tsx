import { useId } from 'react';

import { FormField, FormRow } from '../../ui/form-field';

/** The achievement form's values as typed. */
export interface AchievementValues {
  key: string;
  name: string;
  description: string;
  points: string;
  hidden: boolean;
}

export const EMPTY_ACHIEVEMENT: AchievementValues = {
  key: '',
  name: '',
  description: '',
  points: '10',
  hidden: false,
};

interface AchievementFieldsProps {
  values: AchievementValues;
  isEditing: boolean;
  change: <K extends keyof AchievementValues>(key: K, value: AchievementValues[K]) => void;
}

/** The fields of an achievement: key, name, points, description, hidden until unlocked. */
export function AchievementFields({ values, isEditing, change }: AchievementFieldsProps) {
  const field = useId();
  return (
    <>
      <FormRow>
        <FormField
          id={`${field}-key`}
          label="Achievement key"
          value={values.key}
          onValueChange={(value) => change('key', value)}
          readOnly={isEditing}
          required
          maxLength={100}
          hint="What the game passes to GameSDK.unlock"
        />
        <FormField
          id={`${field}-name`}
          label="Achievement name"
          value={values.name}
          onValueChange={(value) => change('name', value)}
          required
          maxLength={100}
        />
        <FormField
          id={`${field}-points`}
          label="Points"
          type="number"
          min={0}
          max={1000}
          step={1}
          value={values.points}
          onValueChange={(value) => change('points', value)}
        />
      </FormRow>
      <FormField id={`${field}-description`} label="Achievement description">
        {(control) => (
          <textarea
            {...control}
            rows={2}
            maxLength={500}
            value={values.description}
            onChange={(event) => change('description', event.target.value)}
          />
        )}
      </FormField>
      <FormField id={`${field}-hidden`} label="Hidden until unlocked" isInline>
        {(control) => (
          <input
            {...control}
            type="checkbox"
            checked={values.hidden}
            onChange={(event) => change('hidden', event.target.checked)}
          />
        )}
      </FormField>
    </>
  );
}
