import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { excerpt } from '../core/findings.js';
import { inputSchemas, manageRequirements, type ManageAction, type ToolName } from './tool-definitions.js';

let validators: Map<ToolName, ValidateFunction> | undefined;

function validatorOf(tool: ToolName): ValidateFunction {
  if (!validators) {
    const ajv = new Ajv2020({ allErrors: true, strict: false, verbose: true });
    validators = new Map(Object.entries(inputSchemas).map(([n, schema]) => [n as ToolName, ajv.compile(schema)]));
  }
  return validators.get(tool) as ValidateFunction;
}

/** Problems with a tool call's arguments, each saying what to send instead; empty when they are fine. */
export function checkToolArguments(tool: ToolName, args: unknown): string[] {
  const validate = validatorOf(tool);
  if (!validate(args ?? {})) return (validate.errors ?? []).map((e) => describe(tool, e));
  if (tool !== 'skill_manage') return [];
  const input = args as Record<string, unknown>;
  const action = input.action as ManageAction;
  const missing = manageRequirements[action].filter((key) => input[key] === undefined);
  return missing.map((key) => `skill_manage action "${action}" needs \`${key}\`: ${describeProperty(tool, key)}`);
}

function describe(tool: ToolName, error: ErrorObject): string {
  const key = error.instancePath.replace(/^\//, '');
  switch (error.keyword) {
    case 'required': {
      const missing = String((error.params as { missingProperty: string }).missingProperty);
      return `${tool} needs \`${missing}\`: ${describeProperty(tool, missing)}`;
    }
    case 'additionalProperties': {
      const extra = String((error.params as { additionalProperty: string }).additionalProperty);
      return `${tool} has no argument \`${extra}\`; it takes ${Object.keys(inputSchemas[tool].properties)
        .map((k) => `\`${k}\``)
        .join(', ')}`;
    }
    case 'type':
      return `\`${key || 'arguments'}\` must be a ${String((error.params as { type: string }).type)}, not ${typeName(error.data)} (${excerpt(JSON.stringify(error.data) ?? 'undefined', 40)})`;
    case 'enum':
      return `\`${key}\` must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}, not ${excerpt(JSON.stringify(error.data) ?? 'undefined', 40)}`;
    default:
      return `\`${key || 'arguments'}\` ${error.message ?? 'is invalid'}`;
  }
}

function describeProperty(tool: ToolName, key: string): string {
  const property = inputSchemas[tool].properties[key] as { description?: string } | undefined;
  return property?.description ?? 'see the tool description';
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}
