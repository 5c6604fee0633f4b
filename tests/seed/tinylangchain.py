# The seed's tinylangchain.py, listings 7.7-7.10, typed in as printed.
from typing import List
import inspect
import requests
import os
import json

def get_function_description(func):
    description = {"type": "function"}
    func_description = {}
    func_description['name'] = func.__name__
    func_description['description'] = inspect.getdoc(func)
    sig = inspect.signature(func)
    func_description['parameters'] = list(sig.parameters.items())[0][1].annotation.model_json_schema()
    description['function'] = func_description
    return description

class Tool:
    def __init__(self, func, arg_type, description):
        self.func = func
        self.func_name = self.func.__name__
        self.arg_type = arg_type
        self.description = description
    def invoke(self, args):
        try:
            modeld_args = json.loads(str(args))
            argument = self.arg_type(**modeld_args)
            return {"role": "tool",
                    "tool_name": str(self.func_name),
                    "content": str(self.func(argument))}
        except Exception as e:
            return {"role": "tool",
                    "tool_name": str(self.func_name),
                    "content": str(e)}
    def __str__(self):
        return str({
            "func": self.func_name,
            "arg_type": self.arg_type,
            "description": self.description
            })

def tool(func):
    def wrapper(*args, **kwargs):
        pass
    sig = inspect.signature(func)
    assert len(sig.parameters.items()) == 1
    arg_type = list(sig.parameters.items())[0][1].annotation
    return Tool(func, arg_type, get_function_description(func))

class LLM:
    def __init__(self, model, temperature):
        self.model = model
        self.temperature = temperature
        self.openai_api_base = os.getenv("OPENAI_API_BASE")
        self.openai_api_key = os.getenv("OPENAI_API_KEY")
    def chat_completion(self, messages, tools):
        return self.post(messages, tools)
    def post(self, messages, tools: List[Tool]):
        headers = {
            "Authorization": f"Bearer {self.openai_api_key}",
            "Content-Type": "application/json"
        }
        body = {
            "model": self.model,
            "messages": messages,
            "tools": [tool.description for tool in tools],
            "function_call": "auto",
            "temperature": self.temperature
        }
        resp = requests.post(self.openai_api_base + "/chat/completions", headers = headers, json = body).json()
        return resp['choices'][0]

class Agent:
    def __init__(self, model: LLM, tools: List[Tool], system_prompt: str = None):
        self.model = model
        self.tools = tools
        self.tools_dict = {tool.func_name: tool for tool in tools}
        self.system_prompt = {"role": "system", "content": "You are a helpful assistant"}
        if not system_prompt is None and self.validate_msg(system_prompt, 'system'):
            self.system_prompt = system_prompt
        self.history = [self.system_prompt]
    def invoke_tool(self, tool_name, tool_args):
        return self.tools_dict[tool_name].invoke(tool_args)
    def validate_msg(self, msg: dict, role: str):
        ## 详细见代码仓库 tool-example/client/tinylangchain.py
         return True
    def append_msg(self, new_msg):
        self.history.append(new_msg)
        return self.history
    def run(self, input):
        if self.validate_msg(input, "user"):
            yield self.append_msg(input)
        resp = self.model.chat_completion(self.history, self.tools)
        while resp['finish_reason'] != 'stop':
            finish_reason = resp['finish_reason']
            message = resp['message']
            yield self.append_msg(message)
            if finish_reason == 'tool_calls':
                tool_calls = message['tool_calls']
                for tool_call in tool_calls:
                    func_call = tool_call['function']
                    tool_result = self.invoke_tool(func_call['name'], func_call['arguments'])
                    tool_result['tool_call_id'] = tool_call['id']
                    yield self.append_msg(tool_result)
            resp = self.model.chat_completion(self.history, self.tools)
        yield self.append_msg(resp['message'])

def create_agent(model, tools, system_prompt = None):
    return Agent(model, tools, system_prompt)
